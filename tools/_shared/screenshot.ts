/**
 * Encoding, downscaling and registering screenshots handed to agents.
 *
 * @module
 */
import type { Capture } from "../../src/kernel/captures.ts";
import { type CaptureOrigin, encodeCapture } from "../../src/engine/capture_pipeline.ts";
import { writeCallerFile } from "../../src/kernel/safe_files.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import type { RawImage } from "../../src/ports/screen.ts";

/** An encoded, registered screenshot. */
export interface EncodedShot {
  png: Uint8Array;
  width: number;
  height: number;
  capture: Capture;
}

/**
 * Downscales (longest edge ≤ `maxDimension`, 0 = native), encodes to PNG and registers
 * the capture with its pixels kept for parse_visual_regions (the core capture pipeline).
 * The image's pixel buffer is lent to the PNG Worker: do not read `image.data` until this settles.
 */
export async function encodeShot(
  ctx: ToolContext,
  image: RawImage,
  where: CaptureOrigin,
  maxDimension: number,
): Promise<EncodedShot> {
  const shot = await encodeCapture(ctx, image, where, {
    size: maxDimension,
    format: "png",
    keepPixels: true,
  });
  return { png: shot.bytes, width: shot.width, height: shot.height, capture: shot.capture };
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
