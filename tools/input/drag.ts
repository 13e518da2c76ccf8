import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { performDrag } from "../../src/engine/drag.ts";
import { interpolate } from "../../src/engine/gesture.ts";
import { parseModifiers } from "../../src/engine/modifiers.ts";
import { echoPoint, toScreenPoint, withPoints } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { resolveTarget } from "../../src/engine/target.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  buttonParam,
  coordinateSpaceParam,
  cursorIdParam,
  deliveryMode,
  deliveryModeParam,
  legacyTargetParams,
  modifierParam,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

const coordinate = (what: string) => z.number().describe(`${what}, in coordinate_space`);

/** Gesture timing shared by drag and mouse_drag. */
export const dragTimingParams = {
  duration_ms: z.number().int().min(0).max(10_000).default(500).describe(
    "Time from press to release, spread over the steps",
  ),
  steps: z.number().int().min(1).max(200).default(20).describe("Intermediate pointer moves"),
};

/** drag's schema (contract.md §1.5). */
export const dragInput = z.strictObject({
  from_x: coordinate("Start x"),
  from_y: coordinate("Start y"),
  to_x: coordinate("End x"),
  to_y: coordinate("End y"),
  ...dragTimingParams,
  button: buttonParam,
  modifier: modifierParam,
  from_zoom: z.boolean().optional().describe(
    "The points are pixels of this session's latest zoom of the window",
  ),
  coordinate_space: coordinateSpaceParam,
  target: targetParam,
  ...legacyTargetParams,
  delivery_mode: deliveryModeParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Press at from, move in steps, release at to. */
export default defineTool({
  name: "drag",
  title: "Drag",
  description:
    "Press at from_x, from_y, move to to_x, to_y in steps over duration_ms, release. The private pointer needs the whole path uncovered. A slider under the start point is read back.",
  group: "input",
  input: dragInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.pointer.drag", "input.delivery_mode"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const target = await resolveTarget(ctx, args, { allowDesktop: true, allowElement: false });
      const from = await toScreenPoint(ctx, target, args.from_x, args.from_y, args, "from_x, from_y");
      const to = await toScreenPoint(ctx, target, args.to_x, args.to_y, args, "to_x, to_y");
      const path = interpolate([from, to], args.steps);
      const outcome = await performDrag(
        ctx,
        target,
        path,
        { button: args.button, modifiers: parseModifiers(args.modifier ?? []), durationMs: args.duration_ms },
        deliveryMode(args.delivery_mode),
      );
      return withPoints(outcome, [
        echoPoint(args.from_x, args.from_y, args, target, from),
        echoPoint(args.to_x, args.to_y, args, target, to),
      ]);
    });
  },
});
