/**
 * Cropping RGBA images to a rectangle, clipped to the image.
 *
 * @module
 */
import type { Rect } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";

/**
 * Copies the part of `image` inside `rect` (pixel coordinates, origin top-left).
 *
 * Fractional edges grow outward (start floored, end ceiled) so the result covers the
 * whole rectangle; the rectangle is then clipped to the image. A rectangle entirely
 * outside the image (or empty) gives a 0x0 image.
 *
 * @param image Source pixels.
 * @param rect Region to keep.
 * @returns A new image of the clipped region.
 * @throws {RangeError} if a rectangle field is not a finite number.
 * @example
 * ```ts
 * const capture = { width: 1920, height: 1080, data: new Uint8Array(1920 * 1080 * 4) };
 * const zoomed = cropRgba(capture, { x: 1700, y: 50, width: 400, height: 300 });
 * console.log(zoomed.width, zoomed.height); // 220 300 (clipped at the right edge)
 * ```
 */
export function cropRgba(image: RawImage, rect: Rect): RawImage {
  const { x, y, width, height } = rect;
  if (![x, y, width, height].every(Number.isFinite)) {
    throw new RangeError(`Cannot crop to ${x},${y} ${width}x${height}: expected finite numbers`);
  }
  const x0 = Math.max(0, Math.floor(x)), y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(image.width, Math.ceil(x + width)), y1 = Math.min(image.height, Math.ceil(y + height));
  if (x1 <= x0 || y1 <= y0) return { width: 0, height: 0, data: new Uint8Array(0) };
  const w = x1 - x0, h = y1 - y0, rowBytes = w * 4, sourceRow = image.width * 4;
  if (w === image.width && h === image.height) return { width: w, height: h, data: image.data.slice() };
  const data = new Uint8Array(h * rowBytes);
  for (let row = 0; row < h; row++) {
    const from = (y0 + row) * sourceRow + x0 * 4;
    data.set(image.data.subarray(from, from + rowBytes), row * rowBytes);
  }
  return { width: w, height: h, data };
}
