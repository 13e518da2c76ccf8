/**
 * `scroll` of `computer_toolset_20260801`: wheel detents at a screenshot pixel (or where the cursor
 * is), with a key combination held, through the driver's `scroll` on the desktop.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { heldModifiers } from "../../src/engine/modifiers.ts";
import scroll from "../input/scroll.ts";
import {
  actionReply,
  coordinateParam,
  defineMember,
  holdTextParam,
  modifiersOf,
  pointOrCursor,
  runOwn,
} from "./_member.ts";

export default defineMember({
  name: "scroll",
  description:
    "Scroll in a direction by `scroll_amount` wheel clicks at the (x, y) pixel coordinate, or at " +
    "the current cursor position if `coordinate` is omitted.",
  input: z.strictObject({
    scroll_direction: z.enum(["up", "down", "left", "right"]),
    scroll_amount: z.number().int().min(1).max(50).describe("Number of 'clicks' of the scroll wheel."),
    coordinate: coordinateParam.nullable().optional(),
    text: holdTextParam,
  }),
  capabilities: ["input.pointer.scroll"],
  async run(ctx, args) {
    const modifiers = modifiersOf(args.text);
    const point = await pointOrCursor(ctx, args.coordinate);
    const own = await heldModifiers(ctx, "global", modifiers, () =>
      runOwn(ctx, scroll, {
        target: { kind: "desktop" },
        direction: args.scroll_direction,
        amount: args.scroll_amount,
        x: point.x,
        y: point.y,
        coordinate_space: "screen",
      }));
    return actionReply(own);
  },
});
