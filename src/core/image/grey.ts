/**
 * Greyscale (luma) images: one byte per pixel, the input of text recognition and of
 * the control-box heuristic.
 *
 * @module
 */
import type { RawImage } from "../../platform/types.ts";

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
