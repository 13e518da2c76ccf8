import { z } from "../../src/lib/schema/mod.ts";
import { ActionResultSchema } from "../../src/engine/action_result.ts";
import { performClick } from "../../src/engine/click.ts";
import { parseModifiers } from "../../src/engine/modifiers.ts";
import { aimsAtPoint, echoPoint, toScreenPoint, withPoints } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { resolveTarget } from "../../src/engine/target.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  buttonParam,
  cursorIdParam,
  deliveryMode,
  deliveryModeParam,
  elementParams,
  legacyTargetParams,
  modifierParam,
  pointParams,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** Schema shared by click, double_click and right_click. */
export const clickInput = z.strictObject({
  target: targetParam,
  ...legacyTargetParams,
  ...elementParams,
  ...pointParams,
  button: buttonParam,
  count: z.number().int().min(1).max(3).default(1).describe("Clicks: 1 single, 2 double, 3 triple"),
  modifier: modifierParam,
  delivery_mode: deliveryModeParam,
  cursor_id: cursorIdParam,
  session: sessionParam,
});

/** Runs a click-family call. */
export function clickTool(ctx: Parameters<typeof performClick>[0], args: z.output<typeof clickInput>) {
  return runAction(ctx, async () => {
    const target = await resolveTarget(ctx, args, { allowDesktop: true, allowElement: true });
    const hasPoint = aimsAtPoint(args, target);
    if (!hasPoint && !target.element) {
      throw new DriverError("invalid_arguments", "Pass an element_token, or x and y", {
        field: "element_token",
        hint: "take element_token or pixel coordinates from the latest get_window_state",
      });
    }
    const point = hasPoint ? await toScreenPoint(ctx, target, args.x!, args.y!, args) : null;
    const modifiers = parseModifiers(args.modifier ?? []);
    const outcome = await performClick(
      ctx,
      target,
      point,
      { button: args.button, count: args.count, modifiers },
      deliveryMode(args.delivery_mode),
    );
    return point ? withPoints(outcome, [echoPoint(args.x!, args.y!, args, target, point)]) : outcome;
  });
}

/** Click by element or pixel, background first. */
export default defineTool({
  name: "click",
  title: "Click",
  description:
    "Click an element (AT-SPI action) or x, y (the private pointer). The result says the route, whether the effect was read back (confirmed) and which rung to try next.",
  group: "input",
  input: clickInput,
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: [
    "input.pointer.click",
    "input.pointer.click.left",
    "accessibility.element_tokens",
    "input.delivery_mode",
  ],
  run: clickTool,
});
