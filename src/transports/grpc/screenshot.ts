/**
 * ComputerService.Screenshot: a display or a window (its own pixels, even when
 * covered), optionally a region, downscaled and encoded, registered as a capture
 * so later input in COORDINATE_SPACE_SCREENSHOT converts through it.
 *
 * `include_cursor` is accepted and ignored: captures never contain the pointer.
 * WebP is refused with FEATURE_UNSUPPORTED (no WebP encoder here).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { cropRgba } from "../../core/image/crop.ts";
import { DEFAULT_JPEG_QUALITY, encodeJpeg } from "../../core/image/jpeg.ts";
import { encodePngOffThread } from "../../core/image/png_worker.ts";
import { fitWithin, resizeRgba } from "../../core/image/resize.ts";
import type { ToolRegistry } from "../../core/registry.ts";
import type { DisplayInfo, RawImage, Rect } from "../../platform/types.ts";
import { type CaptureSources, resolveDisplay, resolveWindow } from "./coordinates.ts";
import { invalid, unsupported } from "./errors.ts";
import {
  ImageFormat,
  type ScreenshotRequest,
  type ScreenshotResponse,
  ScreenshotResponseSchema,
} from "./gen/cua/env/v1/computer_pb.ts";

/** Takes one screenshot for the session `sessionId`. */
export async function takeScreenshot(
  registry: ToolRegistry,
  sources: CaptureSources,
  sessionId: string,
  request: ScreenshotRequest,
): Promise<ScreenshotResponse> {
  const format = request.format === ImageFormat.UNSPECIFIED ? ImageFormat.PNG : request.format;
  if (format === ImageFormat.WEBP) {
    throw unsupported("screenshot.format.webp", "WebP is not supported by this server; ask for PNG or JPEG");
  }
  if (format !== ImageFormat.PNG && format !== ImageFormat.JPEG) {
    throw invalid(`Unknown image format ${request.format}`, "format");
  }
  if (request.quality > 100) throw invalid("quality must be 0 to 100", "quality");
  const backend = registry.backend;
  const displays = await backend.screen.displays();

  let image: RawImage;
  let source: Rect;
  let windowId: number | null = null;
  let displayId: string;
  if (request.source.case === "window") {
    const window = await resolveWindow(backend, request.source.value, "window");
    const shot = await backend.screen.captureWindow(window.windowId);
    image = shot.image;
    source = shot.bounds;
    windowId = window.windowId;
    displayId = mostOverlap(displays, source)?.id ?? displays[0]?.id ?? "";
  } else {
    const display = await resolveDisplay(backend, request.source.value ?? "");
    image = await backend.screen.captureDisplay(display.id);
    source = display.bounds;
    displayId = display.id;
  }
  const capturedAt = new Date();

  // Region: logical points relative to the source, clipped to it.
  let logical: Rect = { ...source };
  if (request.region) {
    const r = request.region;
    if (![r.x, r.y, r.width, r.height].every(Number.isFinite) || r.width <= 0 || r.height <= 0) {
      throw invalid("region needs a positive width and height", "region");
    }
    const x0 = Math.max(0, r.x), y0 = Math.max(0, r.y);
    const x1 = Math.min(source.width, r.x + r.width), y1 = Math.min(source.height, r.y + r.height);
    if (x1 <= x0 || y1 <= y0) throw invalid("region lies outside the source", "region");
    logical = { x: source.x + x0, y: source.y + y0, width: x1 - x0, height: y1 - y0 };
    const sx = image.width / source.width, sy = image.height / source.height;
    image = cropRgba(image, { x: x0 * sx, y: y0 * sy, width: (x1 - x0) * sx, height: (y1 - y0) * sy });
  }
  const native = { width: image.width, height: image.height };
  const size = fitWithin(image.width, image.height, request.maxDimension);
  if (size.width !== image.width || size.height !== image.height) {
    image = resizeRgba(image, size.width, size.height);
  }
  const bytes = format === ImageFormat.JPEG
    ? await encodeJpeg(image, request.quality === 0 ? DEFAULT_JPEG_QUALITY : request.quality)
    : await encodePngOffThread(image);

  const capture = registry.state.captures.register({
    kind: windowId === null ? "display" : "window",
    windowId,
    displayId,
    bounds: logical,
    ...(windowId === null ? {} : { windowOrigin: { x: source.x, y: source.y } }),
    imageWidth: image.width,
    imageHeight: image.height,
    sessionId,
  });
  sources.remember(capture.id, source);
  return create(ScreenshotResponseSchema, {
    image: bytes,
    format,
    imageSize: { width: image.width, height: image.height },
    nativeSize: native,
    scale: image.width / logical.width,
    logicalBounds: logical,
    screenshotId: capture.id,
    displayId,
    capturedAt: timestampFromDate(capturedAt),
  });
}

/** The display sharing the largest area with `rect`. */
export function mostOverlap(displays: DisplayInfo[], rect: Rect): DisplayInfo | undefined {
  let best: DisplayInfo | undefined;
  let bestArea = -1;
  for (const display of displays) {
    const b = display.bounds;
    const w = Math.max(0, Math.min(b.x + b.width, rect.x + rect.width) - Math.max(b.x, rect.x));
    const h = Math.max(0, Math.min(b.y + b.height, rect.y + rect.height) - Math.max(b.y, rect.y));
    if (w * h > bestArea) [best, bestArea] = [display, w * h];
  }
  return best;
}
