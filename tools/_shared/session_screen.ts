/**
 * The screen as the vendor computer tools (Anthropic's toolset, OpenAI's computer tool) see it:
 * the primary display, shown in screenshots of one size fixed for the session (chosen from the
 * display at the session's first call), so every coordinate a model sends is a pixel of that full
 * screenshot and the driver scales it to the display. A point outside the screenshot is an
 * error, never clamped.
 *
 * @module
 */
import type { Point, Rect } from "../../src/ports/geometry.ts";
import type { DisplayInfo } from "../../src/ports/screen.ts";
import { DriverError } from "../../src/ports/errors.ts";
import type { RuntimeState } from "../../src/kernel/runtime_state.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";

/** Longest screenshot edge the session size allows. */
export const MAX_EDGE = 1456;
/** Most pixels the session size allows (the API's image budget: larger images are downscaled by it). */
export const MAX_PIXELS = 1_150_000;

/** A screenshot size. */
export interface ShotSize {
  width: number;
  height: number;
}

/** The display a session's screenshots show and their fixed size. */
export interface SessionScreen {
  display: DisplayInfo;
  shot: ShotSize;
}

const sizes = new WeakMap<RuntimeState, Map<string, ShotSize>>();

/** The screenshot size for a display of `width` x `height` points: never upscaled, within both limits. */
export function shotSizeFor(width: number, height: number): ShotSize {
  const scale = Math.min(1, MAX_EDGE / Math.max(width, height), Math.sqrt(MAX_PIXELS / (width * height)));
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/** The primary display and this session's screenshot size (fixed at the session's first call). */
export async function sessionScreen(ctx: ToolContext): Promise<SessionScreen> {
  const displays = await ctx.backend.screen.displays();
  const display = displays.find((d) => d.primary) ?? displays[0];
  if (!display) throw new DriverError("display_unavailable", "No display is attached");
  let perSession = sizes.get(ctx.state);
  if (!perSession) {
    const created = new Map<string, ShotSize>();
    sizes.set(ctx.state, created);
    ctx.state.sessions.addCleanupHook("vendor_screen", (session) => void created.delete(session.id));
    perSession = created;
  }
  let shot = perSession.get(ctx.session.id);
  if (!shot) perSession.set(ctx.session.id, shot = shotSizeFor(display.bounds.width, display.bounds.height));
  return { display, shot };
}

/**
 * A `[x, y]` of the screenshot as a screen point.
 *
 * @throws {DriverError} `coordinate_out_of_bounds` outside the screenshot.
 */
export function toScreen(screen: SessionScreen, coordinate: readonly number[], field = "coordinate"): Point {
  const [x, y] = coordinate;
  const { shot, display } = screen;
  if (x < 0 || y < 0 || x >= shot.width || y >= shot.height) {
    throw new DriverError("coordinate_out_of_bounds", `(${x}, ${y}) is outside the screenshot`, {
      field,
      width: shot.width,
      height: shot.height,
    });
  }
  const b = display.bounds;
  return {
    x: b.x + Math.min(b.width - 1, Math.floor((x + 0.5) * b.width / shot.width)),
    y: b.y + Math.min(b.height - 1, Math.floor((y + 0.5) * b.height / shot.height)),
  };
}

/** A screen point as a pixel of the screenshot (the cursor may be on another display: not clamped). */
export function fromScreen(screen: SessionScreen, point: Point): Point {
  const b = screen.display.bounds;
  return {
    x: Math.floor((point.x - b.x) * screen.shot.width / b.width),
    y: Math.floor((point.y - b.y) * screen.shot.height / b.height),
  };
}

/**
 * A `[x0, y0, x1, y1]` region of the screenshot as the display area it shows, in points relative
 * to the display (for a native-resolution capture).
 *
 * @throws {DriverError} `invalid_arguments` when empty or inverted; `coordinate_out_of_bounds` outside.
 */
export function regionToDisplay(screen: SessionScreen, region: readonly number[]): Rect {
  const [x0, y0, x1, y1] = region;
  if (!(x1 > x0 && y1 > y0)) {
    throw new DriverError("invalid_arguments", "The region must have x1 > x0 and y1 > y0", {
      field: "region",
    });
  }
  const { shot, display } = screen;
  if (x0 < 0 || y0 < 0 || x1 > shot.width || y1 > shot.height) {
    throw new DriverError("coordinate_out_of_bounds", "The region reaches outside the screenshot", {
      field: "region",
    });
  }
  const b = display.bounds;
  const left = Math.floor(x0 * b.width / shot.width), top = Math.floor(y0 * b.height / shot.height);
  const right = Math.ceil(x1 * b.width / shot.width), bottom = Math.ceil(y1 * b.height / shot.height);
  return { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}
