import { z } from "zod";
import { ActionResultSchema } from "../../src/core/action_result.ts";
import { DEFAULT_CURSOR_ID } from "../../src/core/action/held_buttons.ts";
import { pressAndHold, resolveWindowTarget } from "../../src/core/action/hold.ts";
import { toScreenPoint } from "../../src/core/action/pointing.ts";
import { runAction } from "../../src/core/action/run_action.ts";
import { defineTool } from "../../src/core/tool.ts";
import {
  buttonParam,
  coordinateSpaceParam,
  cursorIdParam,
  legacyTargetParams,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** mouse_button_down's schema (contract.md §1.5; the window may also be named by `target`). */
export const mouseButtonDownInput = z.strictObject({
  target: targetParam,
  pid: legacyTargetParams.pid,
  window_id: legacyTargetParams.window_id,
  x: z.number().describe("X in pixels of the latest get_window_state screenshot of the window"),
  y: z.number().describe("Y in the same space as x"),
  button: buttonParam,
  from_zoom: z.boolean().optional().describe("x, y are pixels of this session's latest zoom of the window"),
  coordinate_space: coordinateSpaceParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Press and hold a button (Linux). */
export default defineTool({
  name: "mouse_button_down",
  title: "Mouse button down",
  description:
    "Press and hold a button at x, y (pixels of the latest get_window_state screenshot) in a window, with a " +
    "private pointer of this session's cursor_id that never moves yours (background only: a point covered " +
    "by another window is refused). Move it with mouse_drag, release it with mouse_button_up; a second " +
    "mouse_button_down on the same cursor before the release is an error.",
  group: "input",
  input: mouseButtonDownInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.pointer.button", "input.pointer.drag"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const target = await resolveWindowTarget(ctx, args);
      const point = await toScreenPoint(ctx, target, args.x, args.y, args);
      return await pressAndHold(ctx, target, point, args.button, args.cursor_id ?? DEFAULT_CURSOR_ID);
    });
  },
});
