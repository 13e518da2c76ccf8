/**
 * The click members of the computer toolset (left, right, middle, double, triple): at a
 * screenshot pixel or where the cursor is, with a key combination held, through the driver's
 * `click` on the desktop (the user's pointer) and read back by its witness.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import type { MouseButton } from "../../src/ports/input.ts";
import click from "../input/click.ts";
import {
  actionReply,
  coordinateParam,
  defineMember,
  holdTextParam,
  modifiersOf,
  pointOrCursor,
  runOwn,
} from "./_member.ts";

/** A click member: `count` presses of `button`. */
export function clickMember(name: string, button: MouseButton, count: number, description: string) {
  return defineMember({
    name,
    description,
    input: z.strictObject({ coordinate: coordinateParam.nullable().optional(), text: holdTextParam }),
    capabilities: ["input.pointer.click"],
    async run(ctx, args) {
      const modifier = modifiersOf(args.text);
      const point = await pointOrCursor(ctx, args.coordinate);
      const own = await runOwn(ctx, click, {
        target: { kind: "desktop" },
        x: point.x,
        y: point.y,
        coordinate_space: "screen",
        button,
        count,
        ...(modifier.length ? { modifier } : {}),
      });
      return actionReply(own);
    },
  });
}
