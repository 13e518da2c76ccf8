import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { requireBackgroundPointer } from "../../src/engine/background.ts";
import { cursorApproach } from "../../src/features/agent_cursor/follow.ts";
import type { Outcome } from "../../src/engine/outcome.ts";
import { echoPoint, type ScreenPoint, toScreenPoint, withPoints } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { type ActionTarget, resolveTarget } from "../../src/engine/target.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import {
  coordinateSpaceParam,
  cursorIdParam,
  legacyTargetParams,
  pointParams,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** move_cursor's schema (contract.md §1.5). */
export const moveCursorInput = z.strictObject({
  x: z.number().describe("X, in coordinate_space"),
  y: z.number().describe("Y, in coordinate_space"),
  from_zoom: pointParams.from_zoom,
  coordinate_space: coordinateSpaceParam,
  target: targetParam,
  ...legacyTargetParams,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Move a pointer: the private one over a window, or yours on the desktop. */
export default defineTool({
  name: "move_cursor",
  title: "Move cursor",
  description:
    "Move a pointer to x, y and read it back: over a window the private pointer hovers (refused where covered); on the desktop target your own pointer moves.",
  group: "input",
  input: moveCursorInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["input.pointer.move"],
  run(ctx, args) {
    return runAction(ctx, async (): Promise<Outcome> => {
      const target = await resolveTarget(ctx, args, { allowDesktop: true, allowElement: false });
      const point = await toScreenPoint(ctx, target, args.x, args.y, args);
      return withPoints(await moveTo(ctx, target, point), [echoPoint(args.x, args.y, args, target, point)]);
    });
  },
});

async function moveTo(
  ctx: ToolContext,
  target: ActionTarget,
  point: ScreenPoint,
): Promise<Outcome> {
  const desktop = target.scope === "desktop";
  if (!desktop) await requireBackgroundPointer(ctx, target, [point], "pointer move");
  await cursorApproach(ctx, point, "idle");
  const pointer = await ctx.input.pointer(desktop ? "global" : "background");
  await pointer.move(point);
  await pointer.sync();
  const seen = await pointer.position();
  const where = desktop
    ? `your pointer to screen (${point.x}, ${point.y})`
    : `the private pointer to (${point.x}, ${point.y}) over window ${target.windowId}`;
  const base = {
    route: "global_input" as const,
    mode: desktop ? "not_applicable" as const : "background" as const,
    deliveredCount: 1,
  };
  if (seen && seen.x === point.x && seen.y === point.y) {
    return { ...base, effect: "confirmed", evidence: ["value_readback"], summary: `moved ${where}` };
  }
  if (seen) {
    return {
      ...base,
      effect: "suspected_noop",
      summary: `asked to move ${where}, but it reads back at (${seen.x}, ${seen.y})`,
    };
  }
  return { ...base, effect: "unverifiable", summary: `moved ${where}` };
}
