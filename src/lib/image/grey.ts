/**
 * Greyscale (luma) images: one byte per pixel, the input of text recognition and of
 * the control-box heuristic.
 *
 * @module
 */
import type { RawImage } from "../../ports/screen.ts";

/** One byte per pixel, row after row, no padding. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Converts RGBA to luma with the BT.601 weights (0.299 R + 0.587 G + 0.114 B, in
 * fixed point); alpha is ignored (screenshots are opaque).
 *
 * @example
 * ```ts
 * const grey = toGrey({ width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) });
 * console.log(grey.data[0]); // 255
 * ```
 */
export function toGrey(image: RawImage): GreyImage {
  const { width, height, data } = image;
  const pixels = width * height;
  const out = new Uint8Array(pixels);
  for (let i = 0, j = 0; i < pixels; i++, j += 4) {
    out[i] = (data[j] * 19595 + data[j + 1] * 38470 + data[j + 2] * 7471 + 32768) >> 16;
  }
  return { width, height, data: out };
}

/**
 * Doubles a greyscale image in both directions with bilinear interpolation (pixel
 * centres aligned), for reading small text.
 */
export function upscaleGrey2x(image: GreyImage): GreyImage {
  const { width, height, data } = image;
  const outWidth = width * 2, outHeight = height * 2;
  const out = new Uint8Array(outWidth * outHeight);
  for (let oy = 0; oy < outHeight; oy++) {
    // Output pixel centre (oy + 0.5) / 2 - 0.5 in source rows: a quarter before or after a source row.
    const sy = (oy - 0.5) / 2;
    const y0 = Math.max(0, Math.floor(sy)), y1 = Math.min(height - 1, y0 + 1);
    const fy = Math.min(1, Math.max(0, sy - y0));
    for (let ox = 0; ox < outWidth; ox++) {
      const sx = (ox - 0.5) / 2;
      const x0 = Math.max(0, Math.floor(sx)), x1 = Math.min(width - 1, x0 + 1);
      const fx = Math.min(1, Math.max(0, sx - x0));
      const top = data[y0 * width + x0] * (1 - fx) + data[y0 * width + x1] * fx;
      const bottom = data[y1 * width + x0] * (1 - fx) + data[y1 * width + x1] * fx;
      out[oy * outWidth + ox] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width: outWidth, height: outHeight, data: out };
}
