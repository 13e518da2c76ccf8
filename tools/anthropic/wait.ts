/**
 * `wait` of `computer_toolset_20260801`: nothing for `duration` seconds (ends early when the call
 * is cancelled).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { abortableDelay } from "./_wait.ts";
import { defineMember } from "./_member.ts";

export default defineMember({
  name: "wait",
  description: "Wait for a specified duration, in seconds.",
  input: z.strictObject({ duration: z.number().min(0).max(100).describe("Duration to wait, in seconds.") }),
  output: z.object({ waited_ms: z.number() }),
  readOnly: true,
  risk: "r0",
  capabilities: ["session.wait"],
  async run(ctx, args) {
    const started = performance.now();
    await abortableDelay(args.duration * 1000, ctx.signal);
    const waited = Math.round(performance.now() - started);
    return {
      content: [{ type: "text", text: `Waited ${args.duration}s.` }],
      structuredContent: { waited_ms: waited },
    };
  },
});
