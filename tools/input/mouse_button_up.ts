import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { DEFAULT_CURSOR_ID } from "../../src/engine/held_buttons.ts";
import { findHold, releaseHeld, resolveWindowTarget } from "../../src/engine/hold.ts";
import { toScreenPoint } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { requireBackgroundPointer } from "../../src/engine/background.ts";
import {
  coordinateSpaceParam,
  cursorIdParam,
  legacyTargetParams,
  pointParams,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** mouse_button_up's schema (contract.md §1.5). */
export const mouseButtonUpInput = z.strictObject({
  x: z.number().optional().describe("Release at x, in coordinate_space"),
  y: z.number().optional().describe("Omit x and y to release where the button is"),
  pid: legacyTargetParams.pid,
  window_id: legacyTargetParams.window_id,
  from_zoom: pointParams.from_zoom,
  coordinate_space: coordinateSpaceParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Release a held button (Linux). */
export default defineTool({
  name: "mouse_button_up",
  title: "Mouse button up",
  description:
    "Release the button held by mouse_button_down (same session and cursor_id), at x, y of the holding " +
    "window when given, else where it is. Without x, y it always releases, even with the window gone. " +
    "A slider pressed by mouse_button_down is read back.",
  group: "input",
  input: mouseButtonUpInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.pointer.button"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const hold = findHold(
        ctx,
        args.cursor_id ?? DEFAULT_CURSOR_ID,
        { pid: args.pid, windowId: args.window_id },
        "mouse_button_up",
      );
      if ((args.x === undefined) !== (args.y === undefined)) {
        throw new DriverError("invalid_arguments", "Pass both x and y, or neither", {
          field: args.x === undefined ? "x" : "y",
        });
      }
      if (args.x === undefined) return await releaseHeld(ctx, hold, null);
      let target;
      try {
        target = await resolveWindowTarget(ctx, { pid: hold.pid, window_id: hold.windowId });
      } catch (error) {
        if (!(error instanceof DriverError) || !/window_(target_not_found|stale)/.test(error.code)) {
          throw error;
        }
        // The window went away: x, y mean nothing now, but the button must not stay held.
        return await releaseHeld(ctx, hold, null, `; window ${hold.windowId} is gone, so x, y were ignored`);
      }
      const point = await toScreenPoint(ctx, target, args.x, args.y!, args);
      await requireBackgroundPointer(ctx, target, [point], "release", { foregroundRung: false });
      return await releaseHeld(ctx, hold, point);
    });
  },
});
