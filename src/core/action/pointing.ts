/**
 * The one place pixels become screen points, for every tool: window-local
 * screenshot pixels (scaled by the session's latest screenshot of that window),
 * zoom pixels, desktop screenshot pixels, and element centres.
 *
 * @module
 */
import type { Point, Rect } from "../../platform/types.ts";
import type { Capture } from "../captures.ts";
import { DriverError } from "../errors.ts";
import type { ToolContext } from "../tool.ts";
import type { ActionTarget } from "./target.ts";

/** Where pixel coordinates come from. */
export interface PixelSpace {
  /** Use the session's latest zoom of the window instead of its latest screenshot. */
  from_zoom?: boolean;
}

/** A resolved screen point and the capture that defined its pixel space. */
export interface ScreenPoint extends Point {
  capture: Capture | null;
}

/**
 * Converts a pixel of the target's screenshot space to a screen point.
 *
 * Window scope: pixels of this session's latest get_window_state screenshot of
 * the window (or of its latest zoom with `from_zoom`), relative to the window's
 * current position. Desktop scope: screen points (desktop screenshots are native).
 *
 * @throws {DriverError} `screenshot_context_missing` without a screenshot of the window
 *   in this session; `invalid_arguments` for points outside the window or screen.
 */
export async function toScreenPoint(
  ctx: ToolContext,
  target: ActionTarget,
  x: number,
  y: number,
  space: PixelSpace = {},
  field = "x, y",
): Promise<ScreenPoint> {
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    throw new DriverError("invalid_arguments", `Coordinates must be finite numbers`, { field });
  }
  if (target.scope === "desktop") {
    const [display] = await ctx.backend.screen.displays();
    if (!contains(display.bounds, { x, y })) {
      throw outside(
        field,
        `(${x}, ${y}) is outside the screen ${display.bounds.width}x${display.bounds.height}`,
      );
    }
    return { x, y, capture: null };
  }
  const capture = space.from_zoom
    ? ctx.state.captures.latestZoom(ctx.session.id, target.windowId)
    : ctx.state.captures.latestForWindow(ctx.session.id, target.windowId);
  if (!capture) {
    throw new DriverError(
      "screenshot_context_missing",
      space.from_zoom
        ? `No zoom of window ${target.windowId} in this session`
        : `No screenshot of window ${target.windowId} in this session to map x, y from`,
      {
        effect: "refused",
        window_id: target.windowId,
        hint: "call get_window_state for this window first, with the same session label",
      },
    );
  }
  if (x < 0 || y < 0 || x > capture.imageWidth || y > capture.imageHeight) {
    throw outside(
      field,
      `(${x}, ${y}) is outside the ${capture.imageWidth}x${capture.imageHeight} image it refers to`,
    );
  }
  const window = target.window.bounds;
  const origin = capture.windowOrigin ?? { x: capture.bounds.x, y: capture.bounds.y };
  // Window-local: the window may have moved since the capture; its pixels did not.
  const point = {
    x: Math.round(window.x + (capture.bounds.x - origin.x) + x * capture.bounds.width / capture.imageWidth),
    y: Math.round(window.y + (capture.bounds.y - origin.y) + y * capture.bounds.height / capture.imageHeight),
  };
  if (!contains(window, point)) {
    throw outside(
      field,
      `(${x}, ${y}) maps to screen (${point.x}, ${point.y}), outside window ${target.windowId}`,
    );
  }
  return { ...point, capture };
}

/** The centre of an element, from its live frame (falling back to the snapshot's). */
export async function elementCenter(ctx: ToolContext, ref: unknown): Promise<Point> {
  const frame = await ctx.backend.accessibility.frame(ref);
  if (!frame) {
    throw new DriverError("delivery_failed", "The element has no on-screen geometry", {
      hint: "it may be hidden; call get_window_state and pick a visible element",
    });
  }
  return { x: Math.round(frame.x + frame.width / 2), y: Math.round(frame.y + frame.height / 2) };
}

/** True when a rectangle contains a point (right and bottom edges excluded). */
export function contains(rect: Rect, point: Point): boolean {
  return point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width &&
    point.y < rect.y + rect.height;
}

function outside(field: string, detail: string): DriverError {
  return new DriverError("invalid_arguments", `Point out of range: ${detail}`, {
    field,
    effect: "refused",
    hint: "use coordinates inside the latest screenshot of the target",
  });
}
