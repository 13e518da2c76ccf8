/**
 * `left_click_drag` of `computer_toolset_20260801`: press at `start_coordinate`, move, release at
 * `coordinate`, through the driver's `drag` on the desktop (the user's pointer).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import drag from "../input/drag.ts";
import { actionReply, coordinateParam, defineMember, holdTextParam, modifiersOf, runOwn } from "./_member.ts";
import { sessionScreen, toScreen } from "../_shared/session_screen.ts";

export default defineMember({
  name: "left_click_drag",
  description: "Click and drag the cursor from `start_coordinate` to `coordinate`.",
  input: z.strictObject({
    start_coordinate: coordinateParam,
    coordinate: coordinateParam,
    text: holdTextParam,
  }),
  capabilities: ["input.pointer.drag"],
  async run(ctx, args) {
    const modifier = modifiersOf(args.text);
    const screen = await sessionScreen(ctx);
    const from = toScreen(screen, args.start_coordinate, "start_coordinate");
    const to = toScreen(screen, args.coordinate);
    const own = await runOwn(ctx, drag, {
      target: { kind: "desktop" },
      from_x: from.x,
      from_y: from.y,
      to_x: to.x,
      to_y: to.y,
      coordinate_space: "screen",
      ...(modifier.length ? { modifier } : {}),
    });
    return actionReply(own);
  },
});
