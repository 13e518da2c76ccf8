/**
 * `mouse_move` of `computer_toolset_20260801`: the user's pointer to a screenshot pixel, through
 * the driver's `move_cursor` on the desktop (read back from the pointer itself).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import moveCursor from "../input/move_cursor.ts";
import { actionReply, coordinateParam, defineMember, runOwn } from "./_member.ts";
import { sessionScreen, toScreen } from "../_shared/session_screen.ts";

export default defineMember({
  name: "mouse_move",
  description: "Move the cursor to the specified (x, y) pixel coordinate.",
  input: z.strictObject({ coordinate: coordinateParam }),
  capabilities: ["input.pointer.move"],
  async run(ctx, args) {
    const point = toScreen(await sessionScreen(ctx), args.coordinate);
    const own = await runOwn(ctx, moveCursor, {
      target: { kind: "desktop" },
      x: point.x,
      y: point.y,
      coordinate_space: "screen",
    });
    return actionReply(own);
  },
});
