/**
 * The envelope every action runs in: admitted one at a time runtime-wide, every
 * held button and key released afterwards even on failure, the action's witnesses ended
 * (their frames reused by the next captures), and the outcome turned into the closed
 * ActionResult.
 *
 * @module
 */
import type { ToolResult } from "../kernel/result.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { actionResult, type Outcome } from "./outcome.ts";
import { releaseWitnesses, witnessMark } from "./witness.ts";

/** Runs an action under the input lock and shapes its result. */
export async function runAction(ctx: ToolContext, act: () => Promise<Outcome>): Promise<ToolResult> {
  return await ctx.state.inputLock.run(async () => {
    const mark = witnessMark();
    try {
      return actionResult(await act());
    } finally {
      releaseWitnesses(mark);
      await ctx.input.releaseAll().catch(() => {});
    }
  }, ctx.signal);
}
