/**
 * Turns a CGImage's bitmap (any of the 32-bit layouts the window server produces)
 * into the tightly packed, straight-alpha RGBA the core expects.
 *
 * @module
 */
import { CGBitmapInfo } from "../../../ffi/darwin/core_graphics.ts";
import type { RawImage } from "../types.ts";

/** CGImageAlphaInfo values (CGImage.h). */
const Alpha = {
  None: 0,
  PremultipliedLast: 1,
  PremultipliedFirst: 2,
  Last: 3,
  First: 4,
  NoneSkipLast: 5,
  NoneSkipFirst: 6,
} as const;

/** The layout of one 32-bit bitmap. */
export interface BitmapLayout {
  width: number;
  height: number;
  bytesPerRow: number;
  bitsPerPixel: number;
  bitmapInfo: number;
}

/**
 * Converts a 32-bit bitmap to packed RGBA.
 *
 * @throws {RangeError} for a layout other than 32 bits per pixel, or too few bytes.
 */
export function toRgba(bytes: Uint8Array, layout: BitmapLayout): RawImage {
  const { width, height, bytesPerRow, bitsPerPixel, bitmapInfo } = layout;
  if (bitsPerPixel !== 32) throw new RangeError(`Unsupported bitmap: ${bitsPerPixel} bits per pixel`);
  if (bytes.length < bytesPerRow * (height - 1) + width * 4) {
    throw new RangeError(`Bitmap of ${bytes.length} bytes is short for ${width}x${height}`);
  }
  const alpha = bitmapInfo & CGBitmapInfo.AlphaInfoMask;
  const little = (bitmapInfo & CGBitmapInfo.ByteOrderMask) === CGBitmapInfo.ByteOrder32Little;
  const alphaFirst = alpha === Alpha.PremultipliedFirst || alpha === Alpha.First ||
    alpha === Alpha.NoneSkipFirst;
  const premultiplied = alpha === Alpha.PremultipliedFirst || alpha === Alpha.PremultipliedLast;
  const opaque = alpha === Alpha.None || alpha === Alpha.NoneSkipFirst || alpha === Alpha.NoneSkipLast;
  // Byte offsets of R, G, B, A inside one pixel in memory.
  const [r, g, b, a] = little
    ? (alphaFirst ? [2, 1, 0, 3] : [3, 2, 1, 0]) // 32-bit little-endian ARGB is B,G,R,A in memory
    : (alphaFirst ? [1, 2, 3, 0] : [0, 1, 2, 3]);
  const out = new Uint8Array(width * height * 4);
  if (little && alphaFirst && bytes.byteOffset % 4 === 0 && bytesPerRow % 4 === 0) {
    bgraWords(bytes, out, layout, opaque, premultiplied);
    return { width, height, data: out };
  }
  for (let y = 0; y < height; y++) {
    let source = y * bytesPerRow;
    let target = y * width * 4;
    for (let x = 0; x < width; x++, source += 4, target += 4) {
      const alphaValue = opaque ? 255 : bytes[source + a];
      let red = bytes[source + r];
      let green = bytes[source + g];
      let blue = bytes[source + b];
      if (premultiplied && alphaValue > 0 && alphaValue < 255) {
        red = Math.min(255, Math.round((red * 255) / alphaValue));
        green = Math.min(255, Math.round((green * 255) / alphaValue));
        blue = Math.min(255, Math.round((blue * 255) / alphaValue));
      }
      out[target] = red;
      out[target + 1] = green;
      out[target + 2] = blue;
      out[target + 3] = alphaValue;
    }
  }
  return { width, height, data: out };
}

/**
 * The window server's usual layout (32-bit little-endian ARGB: B, G, R, A in memory),
 * converted a word at a time; only translucent premultiplied pixels take the slow path.
 */
function bgraWords(
  bytes: Uint8Array,
  out: Uint8Array,
  layout: BitmapLayout,
  opaque: boolean,
  premultiplied: boolean,
): void {
  const { width, height, bytesPerRow } = layout;
  const source = new Uint32Array(bytes.buffer, bytes.byteOffset, (bytesPerRow * (height - 1)) / 4 + width);
  const target = new Uint32Array(out.buffer);
  const stride = bytesPerRow / 4;
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    const to = y * width;
    for (let x = 0; x < width; x++) {
      const word = source[from + x];
      // A R G B (as a little-endian word) -> A B G R, i.e. R, G, B, A in memory.
      let rgba = (word & 0xff00ff00) | ((word & 0xff) << 16) | ((word >>> 16) & 0xff);
      if (opaque) rgba |= 0xff000000;
      else if (premultiplied) {
        const alpha = word >>> 24;
        if (alpha > 0 && alpha < 255) {
          const un = (shift: number) => Math.min(255, Math.round((((word >>> shift) & 0xff) * 255) / alpha));
          rgba = (alpha << 24) | (un(0) << 16) | (un(8) << 8) | un(16);
        }
      }
      target[to + x] = rgba >>> 0;
    }
  }
}
