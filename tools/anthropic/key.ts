/**
 * `key` of `computer_toolset_20260801`: a key or combination (`"ctrl+s"`), `repeat` times, into the
 * focused window through the driver's `press_key` on the desktop.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { parseCombo } from "../../src/lib/keys/key_names.ts";
import pressKey from "../input/press_key.ts";
import { actionReply, defineMember, runOwn } from "./_member.ts";
import type { ToolResult } from "../../src/kernel/result.ts";

export default defineMember({
  name: "key",
  description: 'Press a key or key-combination on the keyboard. Use "+" to combine modifiers with a key ' +
    '(e.g. "ctrl+s", "alt+Tab", "ctrl+shift+Escape"). Key names are case-insensitive ("Return", "Tab", ' +
    '"Escape", "Up", "Page_Down", "BackSpace", ...).',
  input: z.strictObject({
    text: z.string().min(1).max(64).describe("The key or key-combination to press."),
    repeat: z.number().int().min(1).max(100).nullable().optional().describe(
      "Number of times to repeat the key press. Default is 1.",
    ),
  }),
  capabilities: ["input.keyboard.key"],
  async run(ctx, args) {
    parseCombo(args.text, "text"); // a bad name sends nothing, and its error names this member's field
    let last: ToolResult | null = null;
    for (let i = 0; i < (args.repeat ?? 1); i++) {
      last = await runOwn(ctx, pressKey, { key: args.text, target: { kind: "desktop" } });
    }
    return actionReply(last!);
  },
});
