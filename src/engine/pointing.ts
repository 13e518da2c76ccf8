/**
 * The one place pixels become screen points, for every tool: window-local
 * screenshot pixels (scaled by the session's latest screenshot of that window),
 * zoom pixels, desktop screenshot pixels, pixels of one pinned capture
 * (`screenshot_id`, for regions from parse_visual_regions), and element centres.
 *
 * @module
 */
import type { Point, Rect } from "../ports/geometry.ts";
import { type Capture, captureToScreen } from "../kernel/captures.ts";
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "../kernel/tool.ts";
import type { Outcome } from "./outcome.ts";
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
  /**
   * What x, y are: `"screenshot"` (the default for window targets) pixels of the latest
   * screenshot of the window (or of `screenshot_id`); `"screen"` screen points, as in an
   * element's `frame`. For desktop targets both are screen points.
   */
  coordinate_space?: "screenshot" | "screen";
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
  if (space.coordinate_space === "screen") return await screenPoint(ctx, target, x, y, space, field);
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
  if (capture.previousScale !== undefined && space.coordinate_space === undefined && !space.from_zoom) {
    throw scaleChanged(target, capture, x, y, field);
  }
  return windowPoint(target, capture, x, y, field);
}

/** Screen points for a window target: refused outside the window, with the pixel they would be. */
async function screenPoint(
  ctx: ToolContext,
  target: ActionTarget,
  x: number,
  y: number,
  space: PixelSpace,
  field: string,
): Promise<ScreenPoint> {
  if (space.screenshot_id !== undefined || space.from_zoom) {
    throw new DriverError(
      "invalid_arguments",
      'coordinate_space "screen" takes screen points: pass no screenshot_id or from_zoom with it',
      { field: "coordinate_space", effect: "refused" },
    );
  }
  if (target.scope === "desktop") return await toScreenPoint(ctx, target, x, y, {}, field);
  const window = target.window.bounds;
  const point = { x: Math.round(x), y: Math.round(y) };
  const capture = ctx.state.captures.latestForWindow(ctx.session.id, target.windowId) ?? null;
  if (!contains(window, point)) {
    throw new DriverError(
      "invalid_arguments",
      `Point out of range: screen (${x}, ${y}) is outside window ${target.windowId}, which covers screen ` +
        `${rectWords(window)}`,
      {
        field,
        effect: "refused",
        window_bounds: window,
        hint: capture
          ? `if (${x}, ${y}) are pixels of screenshot ${capture.id}, pass coordinate_space "screenshot": they ` +
            `map to ${pixelWords(target, capture, x, y)}`
          : "pass a point inside the window's bounds (list_windows), or an element_token",
      },
    );
  }
  return { ...point, capture };
}

/** The latest screenshot is scaled unlike the one before: pixels from either would land differently. */
function scaleChanged(
  target: Extract<ActionTarget, { scope: "window" }>,
  capture: Capture,
  x: number,
  y: number,
  field: string,
): DriverError {
  const scale = captureScale(capture);
  return new DriverError(
    "stale_screenshot",
    `The latest screenshot of window ${target.windowId} (${capture.id}, ${capture.imageWidth}x${capture.imageHeight} ` +
      `pixels, ${round(scale)} pixels per point) is scaled unlike the one before it ` +
      `(${round(capture.previousScale!)}): pixels of the older one would land elsewhere`,
    {
      field,
      screenshot_id: capture.id,
      reason: "scale_changed",
      effect: "refused",
      hint: `say which space x, y are in: coordinate_space "screenshot" (pixels of ${capture.id}: ` +
        `${pixelWords(target, capture, x, y)}), or coordinate_space "screen" (screen points: ` +
        `${screenWords(target, x, y)}), or screenshot_id "${capture.id}"`,
    },
  );
}

function captureScale(capture: Capture): number {
  return capture.imageWidth / capture.bounds.width;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function rectWords(r: Rect): string {
  return `(${r.x}, ${r.y}) to (${r.x + r.width - 1}, ${r.y + r.height - 1})`;
}

/** Where pixel (x, y) of `capture` lands now, in words. */
function pixelWords(
  target: Extract<ActionTarget, { scope: "window" }>,
  capture: Capture,
  x: number,
  y: number,
): string {
  const point = mapWindowPixel(target, capture, x, y);
  const where = contains(target.window.bounds, point) ? "inside the window" : "outside the window";
  return `screen (${point.x}, ${point.y}), ${where}`;
}

/** Where screen point (x, y) is relative to the window, in words. */
function screenWords(target: Extract<ActionTarget, { scope: "window" }>, x: number, y: number): string {
  const window = target.window.bounds;
  return contains(window, { x, y })
    ? `(${x}, ${y}) is inside the window`
    : `(${x}, ${y}) is outside the window ` +
      `(${rectWords(window)})`;
}

/** Window-local pixel (x, y) of `capture` as a screen point, through the window's current position. */
function mapWindowPixel(
  target: Extract<ActionTarget, { scope: "window" }>,
  capture: Capture,
  x: number,
  y: number,
): Point {
  const window = target.window.bounds;
  const origin = capture.windowOrigin ?? { x: capture.bounds.x, y: capture.bounds.y };
  // Window-local: the window may have moved since the capture; its pixels did not.
  return {
    x: Math.round(window.x + (capture.bounds.x - origin.x) + x * capture.bounds.width / capture.imageWidth),
    y: Math.round(window.y + (capture.bounds.y - origin.y) + y * capture.bounds.height / capture.imageHeight),
  };
}

/** Maps window-local pixels of `capture` through the window's current position. */
function windowPoint(
  target: Extract<ActionTarget, { scope: "window" }>,
  capture: Capture,
  x: number,
  y: number,
  field: string,
): ScreenPoint {
  insideImage(capture, x, y, field, target);
  const window = target.window.bounds;
  const point = mapWindowPixel(target, capture, x, y);
  if (!contains(window, point)) {
    throw outside(
      field,
      `(${x}, ${y}) in the pixels of screenshot ${capture.id} maps to screen (${point.x}, ${point.y}), ` +
        `outside window ${target.windowId} (${rectWords(window)})`,
      target,
      capture,
      x,
      y,
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

function insideImage(
  capture: Capture,
  x: number,
  y: number,
  field: string,
  target?: Extract<ActionTarget, { scope: "window" }>,
): void {
  if (x < 0 || y < 0 || x > capture.imageWidth || y > capture.imageHeight) {
    throw outside(
      field,
      `(${x}, ${y}) is outside the ${capture.imageWidth}x${capture.imageHeight} pixels of screenshot ${capture.id}`,
      target,
      capture,
      x,
      y,
    );
  }
}

/** A point as the caller gave it and where it went on the screen, for the action result. */
export function echoPoint(
  x: number,
  y: number,
  space: PixelSpace,
  target: ActionTarget,
  point: ScreenPoint,
): NonNullable<Outcome["points"]>[number] {
  const coordinateSpace = target.scope === "desktop" ? "screen" : space.coordinate_space ?? "screenshot";
  const echo: NonNullable<Outcome["points"]>[number] = {
    x,
    y,
    coordinate_space: coordinateSpace,
    screen: { x: point.x, y: point.y },
  };
  if (coordinateSpace === "screenshot" && point.capture) echo.screenshot_id = point.capture.id;
  return echo;
}

/** Adds the echoed points to an action's outcome. */
export function withPoints(outcome: Outcome, points: NonNullable<Outcome["points"]>): Outcome {
  return points.length ? { ...outcome, points } : outcome;
}

/**
 * The centre of an element for pointer input, from its live frame. An element without
 * on-screen geometry (scrolled out of its view) is scrolled into view first when the back
 * end can; `scrolled` then says how, for the action's summary.
 */
export async function elementInView(
  ctx: ToolContext,
  ref: unknown,
): Promise<{ at: Point; scrolled: string | null }> {
  let frame = await ctx.backend.accessibility.frame(ref);
  let scrolled: string | null = null;
  if (!frame && ctx.backend.accessibility.scrollIntoView) {
    const how = await ctx.backend.accessibility.scrollIntoView(ref).catch(() => null);
    if (how) {
      frame = await ctx.backend.accessibility.frame(ref);
      scrolled = how === "scroll_to"
        ? "scrolled the element into view first (its accessibility ScrollTo)"
        : "scrolled the element into view first (its scroll pane's scroll bar value)";
    }
  }
  if (!frame) {
    throw new DriverError("delivery_failed", "The element has no on-screen geometry", {
      hint: "it may be hidden, or in a view that cannot be scrolled to it; call get_window_state and " +
        "pick a visible element",
    });
  }
  return {
    at: { x: Math.round(frame.x + frame.width / 2), y: Math.round(frame.y + frame.height / 2) },
    scrolled,
  };
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

/**
 * A point refused as out of range. For window targets the hint gives the exact conversion:
 * the screenshot's size and scale, and where (x, y) would be as screen points.
 */
function outside(
  field: string,
  detail: string,
  target?: Extract<ActionTarget, { scope: "window" }>,
  capture?: Capture,
  x?: number,
  y?: number,
): DriverError {
  if (!target || !capture || x === undefined || y === undefined) {
    return new DriverError("invalid_arguments", `Point out of range: ${detail}`, {
      field,
      effect: "refused",
      hint: "use coordinates inside the latest screenshot of the target",
    });
  }
  const scale = captureScale(capture);
  const window = target.window.bounds;
  return new DriverError("invalid_arguments", `Point out of range: ${detail}`, {
    field,
    effect: "refused",
    screenshot_id: capture.id,
    screenshot_size: { width: capture.imageWidth, height: capture.imageHeight },
    screenshot_scale: round(scale),
    window_bounds: window,
    hint: `screenshot pixels run (0, 0) to (${capture.imageWidth - 1}, ${capture.imageHeight - 1}); ` +
      `pixel = (screen - (${window.x}, ${window.y})) x ${round(scale)}. If (${x}, ${y}) are screen points ` +
      `(an element frame), pass coordinate_space "screen": ${screenWords(target, x, y)}`,
  });
}
