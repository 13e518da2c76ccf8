/**
 * The gate of the background pointer rung: refuse, before anything is sent, when
 * private-pointer input at any point of a gesture would not land in the target
 * window (a toolkit that drops it, no private pointer, or another window on top).
 *
 * @module
 */
import type { Point } from "../ports/geometry.ts";
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { refuseBackgroundFor } from "./toolkit_routes.ts";
import type { ActionTarget } from "./target.ts";

/**
 * Checks that background pointer input at every point reaches the target window.
 *
 * @param what names the gesture in messages ("drag", "scroll", ...).
 * @throws {DriverError} `background_unavailable` (with a foreground escalation) when
 *   the toolkit drops background input, there is no private pointer, or another
 *   window covers any of the points.
 */
export async function requireBackgroundPointer(
  ctx: ToolContext,
  target: Extract<ActionTarget, { scope: "window" }>,
  points: readonly Point[],
  what: string,
  options: { foregroundRung?: boolean } = {},
): Promise<void> {
  const foreground = options.foregroundRung ?? true;
  refuseBackgroundFor(await ctx.backend.input.toolkit(target.pid), "pointer", target);
  if (!(await ctx.backend.input.backgroundAvailable())) {
    throw refusal(
      `This desktop offers no private background pointer; nothing was sent`,
      "no_private_pointer",
      foreground,
    );
  }
  const seen = new Set<string>();
  for (const point of points) {
    const key = `${Math.round(point.x)},${Math.round(point.y)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!(await ctx.backend.input.windowOnTopAt(target.windowId, point))) {
      throw refusal(
        `Another window covers window ${target.windowId} at (${key}) on the ${what} path; background ` +
          `pointer input would land there, so nothing was sent`,
        "target_covered",
        foreground,
        { covered_point: { x: Math.round(point.x), y: Math.round(point.y) } },
      );
    }
  }
}

function refusal(
  message: string,
  reason: string,
  foreground: boolean,
  extra: Record<string, unknown> = {},
): DriverError {
  if (!foreground) {
    // mouse_button_down/mouse_drag/mouse_button_up have no foreground rung.
    return new DriverError("background_unavailable", message, {
      effect: "refused",
      ...extra,
      reason,
      hint: reason === "target_covered"
        ? "uncover the target (the pointer tools that hold a button act in background only), or use drag " +
          'with delivery_mode "foreground"'
        : 'use drag with delivery_mode "foreground"',
    });
  }
  return new DriverError("background_unavailable", message, {
    effect: "refused",
    ...extra,
    escalation: { recommended: "foreground", reason },
    suggestion: 'Retry this action with delivery_mode:"foreground".',
    hint: reason === "target_covered"
      ? 'retry with delivery_mode "foreground", or move the covering window away'
      : 'retry with delivery_mode "foreground"',
  });
}
