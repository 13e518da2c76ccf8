/**
 * The shared body of type_text, press_key and hotkey: resolve the target and the
 * optional focus point, then run the keyboard ladder.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { type KeyInput, performKeys } from "../../src/engine/keys.ts";
import { aimsAtPoint, echoPoint, toScreenPoint, withPoints } from "../../src/engine/pointing.ts";
import { runAction } from "../../src/engine/run_action.ts";
import { resolveTarget } from "../../src/engine/target.ts";
import { DriverError } from "../../src/ports/errors.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import {
  deliveryMode,
  deliveryModeParam,
  elementParams,
  legacyTargetParams,
  pointParams,
  targetParam,
} from "../_shared/action_params.ts";
import { sessionParam } from "../_shared/params.ts";

/** Targeting fields of the keyboard tools. */
export const keyTargetFields = {
  target: targetParam,
  ...legacyTargetParams,
  ...elementParams,
  ...pointParams,
  delivery_mode: deliveryModeParam,
  session: sessionParam,
};

/** Arguments every keyboard tool shares. */
export interface KeyTargetArgs {
  target?: z.infer<typeof targetParam>;
  scope?: "window" | "desktop";
  pid?: number;
  window_id?: number;
  element_token?: string;
  element_index?: number;
  snapshot_id?: string;
  x?: number;
  y?: number;
  from_zoom?: boolean;
  delivery_mode?: "background" | "foreground" | "auto";
}

/** Runs a keyboard tool call. */
export function runKeys(ctx: ToolContext, args: KeyTargetArgs, input: () => KeyInput): Promise<ToolResult> {
  return runAction(ctx, async () => {
    const keys = input(); // Parse key names before anything else: bad names send nothing.
    const target = await resolveTarget(ctx, args, { allowDesktop: true, allowElement: true });
    const hasPoint = aimsAtPoint(args, target);
    if (target.scope === "desktop" && hasPoint) {
      throw new DriverError(
        "invalid_arguments",
        "Keys go to the focused window in desktop scope; x, y are not accepted",
        {
          field: "x, y",
        },
      );
    }
    const point = hasPoint ? await toScreenPoint(ctx, target, args.x!, args.y!, args) : null;
    const outcome = await performKeys(ctx, target, point, keys, deliveryMode(args.delivery_mode));
    return point ? withPoints(outcome, [echoPoint(args.x!, args.y!, args, target, point)]) : outcome;
  });
}
