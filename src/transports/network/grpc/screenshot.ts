/**
 * ComputerService.Screenshot: one call of `computer_screenshot` (the core capture
 * pipeline through the registry): a display or a window (its own pixels, even when
 * covered), optionally a region, downscaled and encoded, registered so later input in
 * COORDINATE_SPACE_SCREENSHOT converts through it.
 *
 * `include_cursor` is accepted and ignored: captures never contain the pointer.
 * WebP is refused with FEATURE_UNSUPPORTED (no WebP encoder here).
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { fromBase64 } from "../../../kernel/result.ts";
import type { Rect } from "../../../ports/geometry.ts";
import { resolveWindow } from "./coordinates.ts";
import { invalid, unsupported } from "./errors.ts";
import { callTool, type InputScope } from "./geometry.ts";
import {
  ImageFormat,
  type ScreenshotRequest,
  type ScreenshotResponse,
  ScreenshotResponseSchema,
} from "./gen/cua/env/v1/computer_pb.ts";

/** Takes one screenshot for the connection. */
export async function takeScreenshot(
  scope: InputScope,
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
  const source: Record<string, unknown> = {};
  if (request.source.case === "window") {
    const window = await resolveWindow(scope, request.source.value, "window");
    source.window_id = window.windowId;
    if (window.pid !== null) source.pid = window.pid;
  } else {
    source.display_id = request.source.value ?? "";
  }
  if (request.region) {
    const r = request.region;
    if (![r.x, r.y, r.width, r.height].every(Number.isFinite) || r.width <= 0 || r.height <= 0) {
      throw invalid("region needs a positive width and height", "region");
    }
    source.region = { x: r.x, y: r.y, width: r.width, height: r.height };
  }
  const result = await callTool(scope, "computer_screenshot", {
    ...source,
    max_dimension: request.maxDimension,
    format: format === ImageFormat.JPEG ? "jpeg" : "png",
    quality: request.quality,
  });
  const shot = result.structuredContent as {
    screenshot_id: string;
    width: number;
    height: number;
    native_width: number;
    native_height: number;
    logical_bounds: Rect;
    display_id: string;
    captured_at_ms: number;
  };
  const image = result.content.find((part) => part.type === "image");
  return create(ScreenshotResponseSchema, {
    image: image?.type === "image" ? fromBase64(image.data) : new Uint8Array(),
    format,
    imageSize: { width: shot.width, height: shot.height },
    nativeSize: { width: shot.native_width, height: shot.native_height },
    scale: shot.width / shot.logical_bounds.width,
    logicalBounds: shot.logical_bounds,
    screenshotId: shot.screenshot_id,
    displayId: shot.display_id,
    capturedAt: timestampFromDate(new Date(shot.captured_at_ms)),
  });
}
