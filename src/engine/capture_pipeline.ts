/**
 * The one capture pipeline: capture a display or a window, crop a region, downscale,
 * encode (PNG on the encoder Worker, or JPEG) and register the capture's geometry so
 * later input in its pixels converts to screen points (and, when asked, keep its pixels
 * for parse_visual_regions). get_desktop_state, get_window_state, verify_state, zoom and
 * the ComputerService Screenshot all go through here.
 *
 * @module
 */
import type { Rect } from "../ports/geometry.ts";
import type { RawImage } from "../ports/screen.ts";
import type { Capture } from "../kernel/captures.ts";
import { DriverError } from "../ports/errors.ts";
import { cropRgba } from "../lib/image/crop.ts";
import { DEFAULT_JPEG_QUALITY, encodeJpeg } from "../lib/image/jpeg.ts";
import { encodePngOffThread } from "../lib/image/png_worker.ts";
import { fitWithin, resizeRgba } from "../lib/image/resize.ts";
import type { ToolContext } from "../kernel/tool.ts";

/** Where a capture's pixels came from, as the capture registry records it. */
export interface CaptureOrigin {
  kind: "window" | "display" | "zoom";
  windowId: number | null;
  displayId: string;
  /** The area the image shows, in screen points. */
  bounds: Rect;
  /** Window and zoom captures: the window's origin (their pixels are window-local). */
  windowOrigin?: { x: number; y: number };
  /** The whole window or display the area was cut from, when it is larger than `bounds`. */
  sourceBounds?: Rect;
}

/** How to scale and encode. */
export interface EncodeOptions {
  /** Longest edge at most this (0 = native); or an exact size. */
  size: number | { width: number; height: number };
  format: "png" | "jpeg";
  /** JPEG quality 1..100 (default 85). */
  quality?: number;
  /** Keep the pixels for parse_visual_regions. */
  keepPixels?: boolean;
}

/** An encoded, registered image. */
export interface EncodedCapture {
  bytes: Uint8Array;
  mimeType: "image/png" | "image/jpeg";
  width: number;
  height: number;
  capture: Capture;
}

/**
 * Downscales, encodes and registers `image` for the calling session. The image's pixel
 * buffer is lent to the PNG Worker: do not read `image.data` until this settles.
 */
export async function encodeCapture(
  ctx: Pick<ToolContext, "state" | "session">,
  image: RawImage,
  origin: CaptureOrigin,
  options: EncodeOptions,
): Promise<EncodedCapture> {
  const size = typeof options.size === "number"
    ? fitWithin(image.width, image.height, options.size)
    : options.size;
  const scaled = size.width === image.width && size.height === image.height
    ? image
    : resizeRgba(image, size.width, size.height);
  const bytes = options.format === "jpeg"
    ? await encodeJpeg(scaled, options.quality ?? DEFAULT_JPEG_QUALITY)
    : await encodePngOffThread(scaled);
  const capture = ctx.state.captures.register({
    ...origin,
    imageWidth: scaled.width,
    imageHeight: scaled.height,
    sessionId: ctx.session.id,
  });
  if (options.keepPixels) ctx.state.captures.keepPixels(capture.id, scaled);
  return {
    bytes,
    mimeType: options.format === "jpeg" ? "image/jpeg" : "image/png",
    width: scaled.width,
    height: scaled.height,
    capture,
  };
}

/** What {@linkcode captureArea} captures. */
export interface AreaRequest {
  source: { kind: "display"; displayId: string } | { kind: "window"; windowId: number };
  /** A region in points relative to the source's top-left, clipped to it. */
  region?: Rect;
}

/** A captured area before encoding. */
export interface CapturedArea {
  image: RawImage;
  origin: CaptureOrigin;
  /** Pixel size before any crop. */
  nativeWidth: number;
  nativeHeight: number;
}

/**
 * Captures a display or a window (its own pixels, even when covered) and cuts out a region.
 *
 * @throws {DriverError} `invalid_arguments` for an empty region or one outside the source.
 */
export async function captureArea(
  ctx: Pick<ToolContext, "backend">,
  request: AreaRequest,
): Promise<CapturedArea> {
  const screen = ctx.backend.screen;
  let image: RawImage;
  let source: Rect;
  let origin: CaptureOrigin;
  if (request.source.kind === "window") {
    const shot = await screen.captureWindow(request.source.windowId);
    image = shot.image;
    source = shot.bounds;
    const displays = await screen.displays();
    origin = {
      kind: "window",
      windowId: request.source.windowId,
      displayId: mostOverlap(displays, source)?.id ?? displays[0]?.id ?? "",
      bounds: source,
      windowOrigin: { x: source.x, y: source.y },
    };
  } else {
    const id = request.source.displayId;
    const display = (await screen.displays()).find((d) => d.id === id);
    if (!display) {
      throw new DriverError("window_target_not_found", `No display "${id}"`, {
        display_id: id,
        hint: "call get_screen_size for the display ids",
      });
    }
    image = await screen.captureDisplay(display.id);
    source = display.bounds;
    origin = { kind: "display", windowId: null, displayId: display.id, bounds: source };
  }
  const native = { nativeWidth: image.width, nativeHeight: image.height };
  if (!request.region) return { image, origin, ...native };
  const r = request.region;
  if (![r.x, r.y, r.width, r.height].every(Number.isFinite) || r.width <= 0 || r.height <= 0) {
    throw new DriverError("invalid_arguments", "A region needs a positive width and height", {
      field: "region",
    });
  }
  const x0 = Math.max(0, r.x), y0 = Math.max(0, r.y);
  const x1 = Math.min(source.width, r.x + r.width), y1 = Math.min(source.height, r.y + r.height);
  if (x1 <= x0 || y1 <= y0) {
    throw new DriverError("invalid_arguments", "The region lies outside the source", { field: "region" });
  }
  const sx = image.width / source.width, sy = image.height / source.height;
  const cropped = cropRgba(image, { x: x0 * sx, y: y0 * sy, width: (x1 - x0) * sx, height: (y1 - y0) * sy });
  return {
    image: cropped,
    origin: {
      ...origin,
      bounds: { x: source.x + x0, y: source.y + y0, width: x1 - x0, height: y1 - y0 },
      sourceBounds: source,
    },
    nativeWidth: cropped.width,
    nativeHeight: cropped.height,
  };
}

/** The display sharing the largest area with `rect`. */
export function mostOverlap<D extends { bounds: Rect }>(displays: readonly D[], rect: Rect): D | undefined {
  let best: D | undefined;
  let bestArea = -1;
  for (const display of displays) {
    const b = display.bounds;
    const w = Math.max(0, Math.min(b.x + b.width, rect.x + rect.width) - Math.max(b.x, rect.x));
    const h = Math.max(0, Math.min(b.y + b.height, rect.y + rect.height) - Math.max(b.y, rect.y));
    if (w * h > bestArea) [best, bestArea] = [display, w * h];
  }
  return best;
}
