import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { parseHotkey } from "../../src/engine/key_names.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { keyTargetFields, runKeys } from "./_keys_tool.ts";

/** A chord: modifiers down in order, the key, then everything up in reverse. */
export default defineTool({
  name: "hotkey",
  title: "Hotkey",
  description: "Press a key combination: keys lists modifiers then one key, for example " +
    '["ctrl", "shift", "t"]. Modifiers go down in order and up in reverse, and are always released, ' +
    "even when the call fails halfway.",
  group: "input",
  input: z.strictObject({
    keys: z.array(z.string().min(1).max(64)).min(2).max(7),
    ...keyTargetFields,
  }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.keyboard.hotkey", "input.delivery_mode"],
  run(ctx, args) {
    return runKeys(ctx, args, () => ({ kind: "key", ...parseHotkey(args.keys) }));
  },
});
