/**
 * The single conversion of ComputerService input coordinates to screen points:
 * SCREEN as is, WINDOW from the target window's frame, SCREENSHOT through the
 * registered capture ({@linkcode captureToScreen}), NORMALIZED over the target
 * window or display. Stale screenshot geometry fails with STALE_GEOMETRY.
 *
 * @module
 */
import { Code } from "@connectrpc/connect";
import { captureToScreen } from "../../../kernel/captures.ts";
import type { Point, Rect } from "../../../ports/geometry.ts";
import type { DisplayInfo } from "../../../ports/screen.ts";
import type { WindowInfo } from "../../../ports/windows.ts";
import { invalid, rpcError } from "./errors.ts";
import { type InputScope, readDisplays, readScreenshot, readWindow } from "./geometry.ts";
import { CoordinateSpace, ErrorReason, type WindowRef } from "./gen/cua/env/v1/common_pb.ts";
import type { InputTarget } from "./gen/cua/env/v1/computer_pb.ts";

/**
 * The window a WindowRef names. Ids are decimal window ids; this server issues
 * epoch 0 only, so any other epoch is stale.
 *
 * @throws {ConnectError} INVALID_ARGUMENT for a malformed id, FAILED_PRECONDITION +
 *   STALE_HANDLE for a foreign epoch, NOT_FOUND + TARGET_UNAVAILABLE for a gone window.
 */
export async function resolveWindow(scope: InputScope, ref: WindowRef, field: string): Promise<WindowInfo> {
  if (!/^[1-9][0-9]{0,9}$/.test(ref.id) || Number(ref.id) > 0xffffffff) {
    throw invalid(`${field}.id must be a window id in decimal, not "${ref.id}"`, `${field}.id`);
  }
  if (ref.epoch !== 0n) {
    throw rpcError(
      Code.FailedPrecondition,
      ErrorReason.STALE_HANDLE,
      `${field}.epoch ${ref.epoch} is not current`,
      {
        metadata: { hint: "this server issues epoch 0; pass the id from list_windows with epoch 0" },
      },
    );
  }
  const window = await readWindow(scope, Number(ref.id));
  if (!window) {
    throw rpcError(Code.NotFound, ErrorReason.TARGET_UNAVAILABLE, `Window ${ref.id} does not exist`, {
      metadata: { window_id: ref.id, hint: "call list_windows through DriverService.CallTool" },
    });
  }
  return window;
}

/** A display by id ("" and "primary" mean the primary display). */
export async function resolveDisplay(scope: InputScope, id: string): Promise<DisplayInfo> {
  const displays = await readDisplays(scope);
  const display = id === "" || id === "primary"
    ? displays.find((d) => d.primary) ?? displays[0]
    : displays.find((
      d,
    ) => d.id === id);
  if (!display) {
    throw rpcError(Code.NotFound, ErrorReason.TARGET_UNAVAILABLE, `No display "${id}"`, {
      metadata: { hint: "call ListDisplays for the ids" },
    });
  }
  return display;
}

/** Everything a conversion needs besides the point. */
export interface ConversionContext {
  scope: InputScope;
  target: InputTarget;
  window: WindowInfo | null;
}

/**
 * Converts one point of the request's coordinate space to screen points.
 *
 * @throws {ConnectError} INVALID_ARGUMENT (missing window or screenshot_id, point out of
 *   range), FAILED_PRECONDITION + STALE_GEOMETRY (unknown screenshot or changed geometry).
 */
export async function toScreen(ctx: ConversionContext, point: Point, field: string): Promise<Point> {
  if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) throw invalid(`${field} must be finite`, field);
  switch (ctx.target.space) {
    case CoordinateSpace.UNSPECIFIED:
    case CoordinateSpace.SCREEN:
      return { x: point.x, y: point.y };
    case CoordinateSpace.WINDOW: {
      const window = requireWindow(ctx, "COORDINATE_SPACE_WINDOW");
      return { x: window.bounds.x + point.x, y: window.bounds.y + point.y };
    }
    case CoordinateSpace.NORMALIZED: {
      if (point.x < 0 || point.x > 1 || point.y < 0 || point.y > 1) {
        throw invalid(`${field} must be within [0, 1] in COORDINATE_SPACE_NORMALIZED`, field);
      }
      const area = ctx.window?.bounds ?? (await resolveDisplay(ctx.scope, ctx.target.displayId)).bounds;
      return { x: area.x + point.x * area.width, y: area.y + point.y * area.height };
    }
    case CoordinateSpace.SCREENSHOT:
      return await fromScreenshot(ctx, point, field);
    default:
      throw invalid(`Unknown coordinate space ${ctx.target.space}`, "target.space");
  }
}

function requireWindow(ctx: ConversionContext, what: string): WindowInfo {
  if (!ctx.window) throw invalid(`${what} needs target.window`, "target.window");
  return ctx.window;
}

async function fromScreenshot(ctx: ConversionContext, point: Point, field: string): Promise<Point> {
  const id = ctx.target.screenshotId;
  if (id === "") {
    throw invalid("COORDINATE_SPACE_SCREENSHOT needs target.screenshot_id", "target.screenshot_id");
  }
  const capture = await readScreenshot(ctx.scope, id);
  if (!capture) throw stale(`Screenshot "${id}" is unknown or expired`, id);
  if (point.x < 0 || point.y < 0 || point.x > capture.imageWidth || point.y > capture.imageHeight) {
    throw invalid(
      `${field} (${point.x}, ${point.y}) is outside the ${capture.imageWidth}x${capture.imageHeight} screenshot`,
      field,
    );
  }
  const source = capture.sourceBounds;
  const atCapture = captureToScreen(capture, point.x, point.y);
  if (capture.windowId !== null) {
    if (ctx.window && ctx.window.windowId !== capture.windowId) {
      throw invalid(
        `Screenshot "${id}" is of window ${capture.windowId}, not the target window`,
        "target.window",
      );
    }
    const now = ctx.window ?? await readWindow(ctx.scope, capture.windowId);
    if (!now) throw stale(`The window of screenshot "${id}" is gone`, id);
    if (now.bounds.width !== source.width || now.bounds.height !== source.height) {
      throw stale(
        `Window ${capture.windowId} is ${now.bounds.width}x${now.bounds.height} now, ` +
          `${source.width}x${source.height} when screenshot "${id}" was taken`,
        id,
      );
    }
    // Window pixels stay valid when the window only moved: follow it.
    const origin = capture.windowOrigin ?? { x: source.x, y: source.y };
    return { x: atCapture.x + now.bounds.x - origin.x, y: atCapture.y + now.bounds.y - origin.y };
  }
  const display = (await readDisplays(ctx.scope)).find((d) => d.id === capture.displayId);
  if (!display || !sameRect(display.bounds, source)) {
    throw stale(`The geometry of display "${capture.displayId}" changed since screenshot "${id}"`, id);
  }
  return atCapture;
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function stale(message: string, screenshotId: string) {
  return rpcError(Code.FailedPrecondition, ErrorReason.STALE_GEOMETRY, message, {
    metadata: { screenshot_id: screenshotId, hint: "take a new Screenshot and use its screenshot_id" },
  });
}
