import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { runBrowserAction } from "../../src/features/browser/act.ts";
import { insertText, typeKeys } from "../../src/features/browser/input.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { refParam, tabIdParam, targetIdParam } from "./_params.ts";

/** Focuses a field by DOM, optionally selects its content, and returns whether it takes text. */
const PREPARE_FIELD = `function (replace) {
  this.focus();
  const field = 'value' in this && (this.tagName === 'INPUT' || this.tagName === 'TEXTAREA');
  if (!field && !this.isContentEditable) return false;
  if (replace) {
    if (field) this.select();
    else { const r = document.createRange(); r.selectNodeContents(this); const s = getSelection(); s.removeAllRanges(); s.addRange(r); }
  } else if (field && typeof this.setSelectionRange === 'function' && /^(text|search|url|tel|password|)$/.test(this.type || '')) {
    this.setSelectionRange(this.value.length, this.value.length);
  }
  return document.activeElement === this;
}`;

/** Types into a ref of an exactly-bound tab. */
export default defineTool({
  name: "browser_type",
  title: "Type in browser tab",
  description:
    "Type into a ref of a bound tab (input, textarea, contenteditable; focused, caret at the end; replace:true replaces the content). mode insert_text (default) commits at once; keystrokes presses each key. confirmed when CDP reads the value back.",
  group: "browser",
  input: z.strictObject({
    target_id: targetIdParam,
    tab_id: tabIdParam,
    ref: refParam,
    text: z.string().min(1).max(100_000),
    mode: z.enum(["insert_text", "keystrokes"]).default("insert_text"),
    replace: z.boolean().default(false).describe("Replace the field's content instead of appending"),
    session: sessionParam,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r2",
  capabilities: ["browser.input.type", "browser.cdp"],
  run(ctx, args) {
    const expected = args.text.replaceAll("\r\n", "\n");
    return runBrowserAction(
      ctx,
      {
        targetId: args.target_id,
        tabId: args.tab_id,
        aim: { ref: args.ref },
        requireRef: true,
        route: "trusted",
        events: ["keydown", "beforeinput", "input"],
        expect: (b, a) =>
          a.value !== null && a.value !== b.value &&
          (args.replace ? a.value === expected : a.value.includes(expected)),
      },
      async ({ entry, probe, handle }) => {
        const { result } = await handle.tab.send("Runtime.callFunctionOn", {
          functionDeclaration: PREPARE_FIELD,
          objectId: probe.objectId!,
          arguments: [{ value: args.replace }],
          returnByValue: true,
        });
        if (result.value !== true) {
          throw new DriverError(
            "browser_action_unavailable",
            `Ref ${entry!.ref} (${entry!.role}) does not take text`,
            {
              ref: entry!.ref,
              hint: "pass the ref of an input, textarea or contenteditable element",
            },
          );
        }
        const chars = [...expected].length;
        const summary =
          `typed ${chars} characters into ${entry!.ref} (${entry!.role} ${JSON.stringify(entry!.name)})` +
          (args.mode === "keystrokes" ? " as keystrokes" : "");
        if (args.mode === "insert_text") {
          return { dispatched: await insertText(handle.tab, expected), summary, deliveredCount: chars };
        }
        const typed = await typeKeys(handle.tab, expected);
        return {
          dispatched: typed.dialog ? "dialog" : "done",
          summary,
          deliveredCount: typed.count,
          ...(typed.count < chars ? { incomplete: { sent: typed.count, expected: chars } } : {}),
        };
      },
    );
  },
});
