/**
 * Encoding, downscaling and registering screenshots handed to agents.
 *
 * @module
 */
import type { Capture } from "../../src/core/captures.ts";
import { encodePngOffThread } from "../../src/core/image/png_worker.ts";
import { fitWithin, resizeRgba } from "../../src/core/image/resize.ts";
import { writeCallerFile } from "../../src/core/safe_files.ts";
import type { ToolContext } from "../../src/core/tool.ts";
import type { RawImage, Rect } from "../../src/platform/types.ts";

/** An encoded, registered screenshot. */
export interface EncodedShot {
  png: Uint8Array;
  width: number;
  height: number;
  capture: Capture;
}

/**
 * Downscales (longest edge ≤ `maxDimension`, 0 = native), encodes to PNG (on the encoder
 * Worker once it is up) and registers the capture's geometry for later pixel-to-screen
 * conversion, and its pixels for parse_visual_regions. The image's pixel buffer is lent to the
 * Worker: do not read `image.data` until this settles.
 */
export async function encodeShot(
  ctx: ToolContext,
  image: RawImage,
  where: {
    kind: "window" | "display";
    windowId: number | null;
    displayId: string;
    bounds: Rect;
    windowOrigin?: { x: number; y: number };
  },
  maxDimension: number,
): Promise<EncodedShot> {
  const size = fitWithin(image.width, image.height, maxDimension);
  const scaled = size.width === image.width && size.height === image.height
    ? image
    : resizeRgba(image, size.width, size.height);
  const png = await encodePngOffThread(scaled);
  const capture = ctx.state.captures.register({
    ...where,
    imageWidth: scaled.width,
    imageHeight: scaled.height,
    sessionId: ctx.session.id,
  });
  // parse_visual_regions reads exactly these pixels later.
  ctx.state.captures.keepPixels(capture.id, scaled);
  return { png, width: scaled.width, height: scaled.height, capture };
}

/**
 * Writes a screenshot to a caller's path: `~/` expanded, the parent resolved, a regular
 * file replaced atomically or created; never through a symlink, into a FIFO or a device.
 *
 * @returns The resolved path written.
 * @throws {DriverError} `file_error`.
 */
export async function writeOutFile(path: string, bytes: Uint8Array): Promise<string> {
  return await writeCallerFile(path, bytes, { field: "screenshot_out_file" });
}
