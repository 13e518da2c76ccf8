/**
 * The one place pixels become screen points, for every tool: window-local
 * screenshot pixels (scaled by the session's latest screenshot of that window),
 * zoom pixels, desktop screenshot pixels, pixels of one pinned capture
 * (`screenshot_id`, for regions from parse_visual_regions), and element centres.
 *
 * @module
 */
import type { Point, Rect } from "../../platform/types.ts";
import { type Capture, captureToScreen } from "../captures.ts";
import { DriverError } from "../errors.ts";
import type { ToolContext } from "../tool.ts";
import type { ActionTarget } from "./target.ts";

/** Where pixel coordinates come from. */
export interface PixelSpace {
  /** Use the session's latest zoom of the window instead of its latest screenshot. */
  from_zoom?: boolean;
  /**
   * Pins x, y to this exact capture of the session (a screenshot_id or zoom_id), refused
   * as `stale_screenshot` when it is unknown, superseded by a newer capture of the same
   * window or display, or the window or display changed geometry since.
   */
  screenshot_id?: string;
}

/** A resolved screen point and the capture that defined its pixel space. */
export interface ScreenPoint extends Point {
  capture: Capture | null;
}

/**
 * Whether a call aims at a pixel: x and y together, never beside an element target.
 *
 * @throws {DriverError} `invalid_arguments` for one coordinate without the other, or a
 *   point with an element.
 */
export function aimsAtPoint(args: { x?: number; y?: number }, target: ActionTarget): boolean {
  if ((args.x === undefined) !== (args.y === undefined)) {
    throw new DriverError("invalid_arguments", "Pass both x and y", {
      field: args.x === undefined ? "x" : "y",
    });
  }
  if (args.x !== undefined && target.element) {
    throw new DriverError("invalid_arguments", "Pass an element or x, y, not both", { field: "x, y" });
  }
  return args.x !== undefined;
}

/**
 * Converts a pixel of the target's screenshot space to a screen point.
 *
 * Window scope: pixels of this session's latest get_window_state screenshot of
 * the window (or of its latest zoom with `from_zoom`), relative to the window's
 * current position. Desktop scope: screen points (desktop screenshots are native).
 *
 * With `space.screenshot_id`, pixels of that capture only (see {@linkcode PixelSpace}).
 *
 * @throws {DriverError} `screenshot_context_missing` without a screenshot of the window
 *   in this session; `stale_screenshot` for a pinned capture that no longer describes the
 *   screen; `invalid_arguments` for points outside the window or screen.
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
  if (space.screenshot_id !== undefined) return await pinnedPoint(ctx, target, x, y, space, field);
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
  return windowPoint(target, capture, x, y, field);
}

/** Maps window-local pixels of `capture` through the window's current position. */
function windowPoint(
  target: Extract<ActionTarget, { scope: "window" }>,
  capture: Capture,
  x: number,
  y: number,
  field: string,
): ScreenPoint {
  insideImage(capture, x, y, field);
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

/** Maps pixels of one pinned capture, refusing a capture that no longer describes the screen. */
async function pinnedPoint(
  ctx: ToolContext,
  target: ActionTarget,
  x: number,
  y: number,
  space: PixelSpace,
  field: string,
): Promise<ScreenPoint> {
  const id = space.screenshot_id!;
  if (space.from_zoom) {
    throw new DriverError("invalid_arguments", "Pass screenshot_id or from_zoom, not both", {
      field: "screenshot_id",
      effect: "refused",
      hint: "a zoom_id is a screenshot_id of its own",
    });
  }
  const captures = ctx.state.captures;
  const capture = captures.get(id);
  if (!capture || capture.sessionId !== ctx.session.id) {
    throw staleScreenshot(id, "unknown", `Screenshot "${id}" is not a live capture of this session`);
  }
  if (target.scope === "desktop") {
    if (capture.kind !== "display") {
      throw new DriverError(
        "invalid_arguments",
        `Screenshot "${id}" is a window capture, not of the desktop`,
        {
          field: "screenshot_id",
          effect: "refused",
          hint:
            'target the window it shows ({kind:"window", pid, window_id}), or use a get_desktop_state screenshot_id',
        },
      );
    }
    if (captures.latestDisplay(ctx.session.id, capture.displayId)?.id !== id) {
      throw staleScreenshot(
        id,
        "superseded",
        `Screenshot "${id}" is not this session's latest desktop capture`,
      );
    }
    const display = (await ctx.backend.screen.displays()).find((d) => d.id === capture.displayId);
    if (!display || !sameRect(display.bounds, capture.bounds)) {
      throw staleScreenshot(
        id,
        "geometry_changed",
        `The display of screenshot "${id}" changed since it was taken`,
      );
    }
    insideImage(capture, x, y, field);
    return { ...captureToScreen(capture, x, y), capture };
  }
  if (capture.kind === "display" || capture.windowId !== target.windowId) {
    throw new DriverError(
      "invalid_arguments",
      `Screenshot "${id}" is ${
        capture.kind === "display" ? "a desktop capture" : `of window ${capture.windowId}`
      }, not of window ${target.windowId}`,
      {
        field: "screenshot_id",
        effect: "refused",
        hint: "target the window the screenshot shows, or pass a screenshot_id of this window",
      },
    );
  }
  const latest = capture.kind === "zoom"
    ? captures.latestZoom(ctx.session.id, target.windowId)
    : captures.latestForWindow(ctx.session.id, target.windowId);
  if (latest?.id !== id) {
    throw staleScreenshot(
      id,
      "superseded",
      `Screenshot "${id}" is not this session's latest ${capture.kind} capture of window ${target.windowId}`,
    );
  }
  const now = target.window.bounds;
  const moved = capture.kind === "window"
    ? !sameRect(now, capture.bounds)
    : capture.windowOrigin?.x !== now.x || capture.windowOrigin?.y !== now.y;
  if (moved) {
    throw staleScreenshot(
      id,
      "geometry_changed",
      `Window ${target.windowId} moved or resized since screenshot "${id}" was taken`,
    );
  }
  return windowPoint(target, capture, x, y, field);
}

function staleScreenshot(
  id: string,
  reason: "unknown" | "superseded" | "geometry_changed",
  message: string,
): DriverError {
  return new DriverError("stale_screenshot", message, {
    screenshot_id: id,
    reason,
    effect: "refused",
    hint: "capture again (get_window_state or get_desktop_state), parse_visual_regions on the new " +
      "screenshot_id, and act on its regions",
  });
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function insideImage(capture: Capture, x: number, y: number, field: string): void {
  if (x < 0 || y < 0 || x > capture.imageWidth || y > capture.imageHeight) {
    throw outside(
      field,
      `(${x}, ${y}) is outside the ${capture.imageWidth}x${capture.imageHeight} image it refers to`,
    );
  }
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
