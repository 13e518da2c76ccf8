import { z } from "../../src/lib/schema/mod.ts";
import { resolveTab } from "../../src/features/browser/resolve.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { tabIdParam, targetIdParam } from "./_params.ts";

/** Inspects or answers a page's JavaScript dialog. */
export default defineTool({
  name: "browser_dialog",
  title: "Browser dialog",
  description:
    "Inspect (dialog_id, type, message, default_prompt, or null), accept (prompt_text for a prompt) or dismiss a page's JavaScript alert, confirm, prompt or beforeunload dialog on a bound tab, over CDP, without raising the window.",
  group: "browser",
  input: z.strictObject({
    target_id: targetIdParam,
    tab_id: tabIdParam,
    action: z.enum(["inspect", "accept", "dismiss"]),
    dialog_id: z.string().min(1).max(64).optional(),
    prompt_text: z.string().max(100_000).optional().describe("accept: the answer to a prompt"),
    delivery_mode: z.enum(["background", "foreground"]).optional(),
    session: sessionParam,
  }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r3",
  capabilities: ["browser.dialog", "browser.cdp"],
  async run(ctx, args) {
    const { target, tab } = await resolveTab(ctx, args.target_id, args.tab_id, { allowDialog: true });
    const base = { status: "ok", target_id: target.id, tab_id: tab.id };
    if (args.action === "inspect") {
      return ok(
        { ...base, action: "inspect", dialog: tab.dialog },
        tab.dialog
          ? `${tab.dialog.type} dialog ${tab.dialog.dialog_id} open: ${JSON.stringify(tab.dialog.message)}`
          : `No dialog is open in ${tab.id}`,
      );
    }
    const dialog = tab.dialog;
    if (!dialog) {
      throw new DriverError("browser_action_unavailable", `No dialog is open in ${tab.id}`, {
        hint: "browser_dialog inspect shows whether one is open",
      });
    }
    if (args.dialog_id !== undefined && args.dialog_id !== dialog.dialog_id) {
      throw new DriverError(
        "browser_ref_stale",
        `Dialog ${args.dialog_id} is no longer open (${dialog.dialog_id} is)`,
        {
          dialog,
          hint: "inspect, then answer the open dialog",
        },
      );
    }
    const accept = args.action === "accept";
    const closed = tab.conn.waitFor("Page.javascriptDialogClosed", {
      sessionId: tab.sessionId,
      timeoutMs: 5_000,
    });
    const params: Record<string, unknown> = { accept };
    if (accept && args.prompt_text !== undefined) params.promptText = args.prompt_text;
    try {
      await tab.send("Page.handleJavaScriptDialog", params);
    } catch (error) {
      closed.cancel();
      throw error;
    }
    const event = await closed.promise;
    const result = event
      ? { accepted: Boolean(event.result), user_input: String(event.userInput ?? "") }
      : tab.lastDialogResult;
    return ok(
      { ...base, action: args.action, dialog, result, closed: event !== null || tab.dialog === null },
      `✅ ${accept ? "Accepted" : "Dismissed"} the ${dialog.type} dialog ${JSON.stringify(dialog.message)}` +
        (result ? ` (the page saw ${result.accepted ? "OK" : "Cancel"})` : ""),
    );
  },
});
