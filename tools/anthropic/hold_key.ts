/**
 * `hold_key` of `computer_toolset_20260801`: a key or combination held down on the user's
 * keyboard for `duration` seconds, then released (also when the call is cancelled).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { formatKey, parseCombo } from "../../src/lib/keys/key_names.ts";
import { abortableDelay } from "./_wait.ts";
import { actionReply, defineMember } from "./_member.ts";

export default defineMember({
  name: "hold_key",
  description:
    "Hold down a key or key-combination for a specified duration. Uses the same key syntax as `key`.",
  input: z.strictObject({
    text: z.string().min(1).max(64).describe("The key or key-combination to hold."),
    duration: z.number().min(0).max(100).describe("Duration to hold the key, in seconds."),
  }),
  capabilities: ["input.keyboard.key"],
  async run(ctx, args) {
    const combo = parseCombo(args.text, "text");
    const keys = [...combo.modifiers, formatKey(combo.key)];
    return actionReply(
      await runAction(ctx, async () => {
        const keyboard = await ctx.input.keyboard("global");
        const down: string[] = [];
        try {
          for (const key of keys) {
            await keyboard.down(key);
            down.push(key);
          }
          await abortableDelay(args.duration * 1000, ctx.signal);
        } finally {
          for (const key of down.reverse()) await keyboard.up(key).catch(() => {});
        }
        return {
          effect: "unverifiable",
          route: "global_input",
          mode: "not_applicable",
          deliveredCount: 1,
          summary: `held ${keys.join("+")} for ${args.duration} s`,
        };
      }),
    );
  },
});
