import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { DEFAULT_CURSOR_ID } from "../../src/engine/held_buttons.ts";
import { pressAndHold, resolveWindowTarget } from "../../src/engine/hold.ts";
import { toScreenPoint } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  buttonParam,
  coordinateSpaceParam,
  cursorIdParam,
  legacyTargetParams,
  pointParams,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** mouse_button_down's schema (contract.md §1.5; the window may also be named by `target`). */
export const mouseButtonDownInput = z.strictObject({
  target: targetParam,
  pid: legacyTargetParams.pid,
  window_id: legacyTargetParams.window_id,
  x: z.number().describe("X, in coordinate_space"),
  y: z.number().describe("Y, in coordinate_space"),
  button: buttonParam,
  from_zoom: pointParams.from_zoom,
  coordinate_space: coordinateSpaceParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Press and hold a button (Linux). */
export default defineTool({
  name: "mouse_button_down",
  title: "Mouse button down",
  description:
    "Press and hold a button at x, y in a window with the private pointer of cursor_id (background only). Move it with mouse_drag, release with mouse_button_up.",
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
