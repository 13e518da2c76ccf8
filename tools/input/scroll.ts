import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { aimsAtPoint, echoPoint, toScreenPoint, withPoints } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { DETENTS_PER_PAGE, performScroll } from "../../src/engine/scroll.ts";
import { resolveTarget } from "../../src/engine/target.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  cursorIdParam,
  deliveryMode,
  deliveryModeParam,
  elementParams,
  legacyTargetParams,
  pointParams,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** scroll's schema (contract.md §1.5). */
export const scrollInput = z.strictObject({
  direction: z.enum(["up", "down", "left", "right"]).describe("Which way the content moves into view"),
  amount: z.number().int().min(1).max(50).default(3).describe("How many units of `by`"),
  by: z.enum(["line", "page"]).default("line").describe(
    `Unit: "line" is one wheel detent, "page" is ${DETENTS_PER_PAGE} detents`,
  ),
  target: targetParam,
  ...legacyTargetParams,
  ...elementParams,
  ...pointParams,
  delivery_mode: deliveryModeParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Scroll an element, a point or the window. */
export default defineTool({
  name: "scroll",
  title: "Scroll",
  description:
    "Scroll direction by amount lines (wheel detents) or pages (5 detents). element_token: its AT-SPI scroll actions or its value (slider, scroll bar), read back. x, y (or neither: the window's centre): wheel detents with the private pointer. Desktop target: your pointer.",
  group: "input",
  input: scrollInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.pointer.scroll", "accessibility.element_tokens", "input.delivery_mode"],
  run(ctx, args) {
    return runAction(ctx, async () => {
      const target = await resolveTarget(ctx, args, { allowDesktop: true, allowElement: true });
      const hasPoint = aimsAtPoint(args, target);
      if (!hasPoint && target.scope === "desktop") {
        throw new DriverError("invalid_arguments", "Desktop scroll needs screen x and y", {
          field: "x",
          hint: "pass x, y in screen points (get_desktop_state screenshot pixels)",
        });
      }
      const point = hasPoint ? await toScreenPoint(ctx, target, args.x!, args.y!, args) : null;
      const outcome = await performScroll(
        ctx,
        target,
        point,
        { direction: args.direction, amount: args.amount, by: args.by },
        deliveryMode(args.delivery_mode),
      );
      return point ? withPoints(outcome, [echoPoint(args.x!, args.y!, args, target, point)]) : outcome;
    });
  },
});
