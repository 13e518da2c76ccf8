import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { parsePress } from "../../src/engine/key_names.ts";
import { keyTargetFields, runKeys } from "./_keys_tool.ts";

/** One key, optionally with modifiers held. */
export default defineTool({
  name: "press_key",
  title: "Press key",
  description:
    "Press and release one key (Return, Tab, Escape, BackSpace, Delete, arrows, Home, End, Page_Up, F1-F24, a character) with modifiers held. Background keys go to the window through a private keyboard; x, y or an element are clicked first to focus.",
  group: "input",
  input: z.strictObject({
    key: z.string().min(1).max(64),
    modifiers: z.array(z.string().min(1)).max(6).optional().describe("ctrl, shift, alt, super"),
    ...keyTargetFields,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.keyboard.key", "input.delivery_mode"],
  run(ctx, args) {
    return runKeys(ctx, args, () => ({ kind: "key", ...parsePress(args.key, args.modifiers ?? []) }));
  },
});
