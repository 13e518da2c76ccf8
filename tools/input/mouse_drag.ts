import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { DEFAULT_CURSOR_ID } from "../../src/engine/held_buttons.ts";
import { findHold, moveHeld, resolveWindowTarget } from "../../src/engine/hold.ts";
import { toScreenPoint } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  coordinateSpaceParam,
  cursorIdParam,
  legacyTargetParams,
  pointParams,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";
import { dragTimingParams } from "./drag.ts";

/** mouse_drag's schema (contract.md §1.5). */
export const mouseDragInput = z.strictObject({
  x: z.number().describe("X, in coordinate_space"),
  y: z.number().describe("Y, in coordinate_space"),
  pid: legacyTargetParams.pid,
  window_id: legacyTargetParams.window_id,
  ...dragTimingParams,
  from_zoom: pointParams.from_zoom,
  coordinate_space: coordinateSpaceParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Move a held button (Linux). */
export default defineTool({
  name: "mouse_drag",
  title: "Mouse drag",
  description:
    "Move the button held by mouse_button_down (same session and cursor_id) to x, y of the same window in steps over duration_ms. The path must be uncovered, else refused with the button still held.",
  group: "input",
  input: mouseDragInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.pointer.drag"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const hold = findHold(
        ctx,
        args.cursor_id ?? DEFAULT_CURSOR_ID,
        { pid: args.pid, windowId: args.window_id },
        "mouse_drag",
      );
      const target = await resolveWindowTarget(ctx, { pid: hold.pid, window_id: hold.windowId });
      const point = await toScreenPoint(ctx, target, args.x, args.y, args);
      return await moveHeld(ctx, hold, target, point, { durationMs: args.duration_ms, steps: args.steps });
    });
  },
});
