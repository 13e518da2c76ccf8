/**
 * ComputerService.Pointer: each action becomes one call of the matching tool
 * (click, move_cursor, mouse_button_down, mouse_button_up, drag, scroll) with
 * points converted once to screen coordinates (coordinates.ts).
 *
 * Not supported (FEATURE_UNSUPPORTED): the back and forward buttons, drag `path`
 * points, SCROLL_UNIT_PIXEL. A move's `duration` is ignored (the pointer jumps).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { Point } from "../../../ports/geometry.ts";
import { type ConversionContext, toScreen } from "./coordinates.ts";
import { deliver, type DeliveryMode, deliveryPlan, type InputScope, type ToolCall } from "./delivery.ts";
import { durationMs } from "./driver_service.ts";
import { invalid, unsupported } from "./errors.ts";
import { readCursor } from "./geometry.ts";
import type { Point as ProtoPoint } from "./gen/cua/env/v1/common_pb.ts";
import {
  MouseButton,
  type PointerRequest,
  type PointerResponse,
  PointerResponseSchema,
  ScrollUnit,
} from "./gen/cua/env/v1/computer_pb.ts";
import { modifierNames } from "./keys.ts";
import { pointArgs, targetArgs } from "./tool_args.ts";

/** Performs one pointer action. */
export async function performPointer(
  scope: InputScope,
  conversion: ConversionContext,
  request: PointerRequest,
): Promise<PointerResponse> {
  const window = conversion.window;
  const plan = deliveryPlan(conversion.target.delivery, window);
  const at = async (point: ProtoPoint | undefined, field: string): Promise<Point> =>
    point ? await toScreen(conversion, point, field) : await readCursor(scope);
  const pixels = (mode: DeliveryMode, point: Point) => pointArgs(mode, window, point);

  let build: (mode: DeliveryMode) => ToolCall | ToolCall[];
  const action = request.action;
  switch (action.case) {
    case "click": {
      const { value } = action;
      const point = await at(value.position, "click.position");
      const button = buttonName(value.button, "click.button");
      if (value.count > 3) throw invalid("click.count must be 0 to 3", "click.count");
      const modifier = modifierNames(value.modifiers, "click.modifiers");
      build = (mode) => ({
        tool: "click",
        args: {
          ...targetArgs(mode, window),
          ...pixels(mode, point),
          button,
          count: Math.max(1, value.count),
          ...(modifier.length ? { modifier } : {}),
        },
      });
      break;
    }
    case "move": {
      if (!action.value.position) throw invalid("move.position is required", "move.position");
      const point = await at(action.value.position, "move.position");
      if (action.value.duration) durationMs(action.value.duration, "move.duration");
      // move_cursor moves the private pointer over a window, the user's on the desktop.
      build = (mode) => {
        const where = mode === "foreground" ? "desktop" : mode;
        return {
          tool: "move_cursor",
          args: { ...targetArgs(where, window, { deliveryParam: false }), ...pixels(where, point) },
        };
      };
      break;
    }
    case "down": {
      const point = await at(action.value.position, "down.position");
      const button = buttonName(action.value.button, "down.button");
      build = (mode) => ({
        tool: "mouse_button_down",
        args: { ...targetArgs(mode, window, { deliveryParam: false }), ...pixels(mode, point), button },
      });
      break;
    }
    case "up": {
      const point = action.value.position ? await at(action.value.position, "up.position") : null;
      buttonName(action.value.button, "up.button");
      build = (mode) => ({
        tool: "mouse_button_up",
        args: {
          ...targetArgs(mode, window, { style: "legacy", deliveryParam: false }),
          ...(point ? pixels(mode, point) : {}),
        },
      });
      break;
    }
    case "drag": {
      const { value } = action;
      if (!value.from || !value.to) throw invalid("drag.from and drag.to are required", "drag.from");
      if (value.path.length) {
        throw unsupported("pointer.drag.path", "Drag paths are not supported; pass from and to");
      }
      const from = await at(value.from, "drag.from");
      const to = await at(value.to, "drag.to");
      const button = buttonName(value.button, "drag.button");
      const modifier = modifierNames(value.modifiers, "drag.modifiers");
      const duration = value.duration ? Math.round(durationMs(value.duration, "drag.duration")) : 300;
      if (duration > 10_000) throw invalid("drag.duration must be at most 10 s", "drag.duration");
      build = (mode) => {
        const a = pixels(mode, from), b = pixels(mode, to);
        return {
          tool: "drag",
          args: {
            ...targetArgs(mode, window),
            from_x: a.x,
            from_y: a.y,
            to_x: b.x,
            to_y: b.y,
            ...(a.coordinate_space ? { coordinate_space: a.coordinate_space } : {}),
            duration_ms: duration,
            button,
            ...(modifier.length ? { modifier } : {}),
          },
        };
      };
      break;
    }
    case "scroll": {
      const { value } = action;
      if (value.unit === ScrollUnit.PIXEL) {
        throw unsupported("pointer.scroll.pixel", "Pixel scrolling is not supported; use SCROLL_UNIT_LINE");
      }
      if (value.unit !== ScrollUnit.UNSPECIFIED && value.unit !== ScrollUnit.LINE) {
        throw invalid("Unknown scroll unit", "scroll.unit");
      }
      const point = value.position ? await at(value.position, "scroll.position") : null;
      const steps = scrollSteps(value.deltaX, value.deltaY);
      build = (mode) =>
        steps.map(([direction, amount]) => ({
          tool: "scroll",
          args: {
            ...targetArgs(mode, window),
            ...(point ? pixels(mode, point) : {}),
            direction,
            amount,
            by: "line",
          },
        }));
      break;
    }
    default:
      throw invalid("Pointer needs an action (click, move, down, up, drag or scroll)", "action");
  }
  const report = await deliverAll(scope, plan, build);
  // The input was delivered: a pointer the grant does not let this connection read is left out.
  const cursor = await readCursor(scope).catch(() => null);
  return create(PointerResponseSchema, {
    report,
    ...(cursor ? { cursorPosition: { x: cursor.x, y: cursor.y } } : {}),
  });
}

/** Delivers one call, or several in order (a diagonal scroll); the last report wins. */
async function deliverAll(
  scope: InputScope,
  plan: DeliveryMode[],
  build: (mode: DeliveryMode) => ToolCall | ToolCall[],
) {
  const first = build(plan[0]);
  if (!Array.isArray(first)) return await deliver(scope, plan, (mode) => build(mode) as ToolCall);
  let report;
  for (let i = 0; i < first.length; i++) {
    report = await deliver(scope, plan, (mode) => (build(mode) as ToolCall[])[i]);
  }
  return report!;
}

function buttonName(button: MouseButton, field: string): "left" | "right" | "middle" {
  switch (button) {
    case MouseButton.UNSPECIFIED:
    case MouseButton.LEFT:
      return "left";
    case MouseButton.RIGHT:
      return "right";
    case MouseButton.MIDDLE:
      return "middle";
    case MouseButton.BACK:
    case MouseButton.FORWARD:
      throw unsupported(
        `pointer.button.${MouseButton[button].toLowerCase()}`,
        "The back and forward buttons are not supported",
      );
    default:
      throw invalid(`Unknown mouse button ${button}`, field);
  }
}

/** Wheel steps for a delta: vertical first, then horizontal; at most 50 lines each way. */
function scrollSteps(dx: number, dy: number): [string, number][] {
  const steps: [string, number][] = [];
  for (const [delta, negative, positive] of [[dy, "up", "down"], [dx, "left", "right"]] as const) {
    if (!Number.isFinite(delta)) throw invalid("scroll deltas must be finite", "scroll");
    const lines = Math.round(Math.abs(delta));
    if (lines > 50) throw invalid("scroll deltas are at most 50 lines", "scroll");
    if (lines > 0) steps.push([delta < 0 ? negative : positive, lines]);
  }
  if (steps.length === 0) throw invalid("scroll needs a non-zero delta_x or delta_y (in lines)", "scroll");
  return steps;
}
