/** Bitmap layouts of CGImage converted to packed RGBA. */
import assert from "node:assert/strict";
import { toRgba } from "./pixels.ts";

// One row of two pixels padded to 16 bytes, then a second row.
function bitmap(pixels: number[][], bytesPerRow: number): Uint8Array {
  const out = new Uint8Array(bytesPerRow * 2);
  pixels.forEach((p, i) => out.set(p, Math.floor(i / 2) * bytesPerRow + (i % 2) * 4));
  return out;
}

Deno.test("toRgba reads the window server's BGRA (little-endian, premultiplied first) with row padding", () => {
  const bytes = bitmap([[3, 2, 1, 255], [30, 20, 10, 255], [0, 0, 255, 255], [9, 9, 9, 255]], 16);
  const image = toRgba(bytes, { width: 2, height: 2, bytesPerRow: 16, bitsPerPixel: 32, bitmapInfo: 0x2002 });
  assert.deepEqual([...image.data], [1, 2, 3, 255, 10, 20, 30, 255, 255, 0, 0, 255, 9, 9, 9, 255]);
});

Deno.test("toRgba un-premultiplies translucent pixels", () => {
  const bytes = bitmap([[0, 64, 128, 128], [0, 0, 0, 0], [1, 1, 1, 255], [1, 1, 1, 255]], 8);
  const image = toRgba(bytes, { width: 2, height: 2, bytesPerRow: 8, bitsPerPixel: 32, bitmapInfo: 0x2002 });
  assert.deepEqual([...image.data.subarray(0, 8)], [255, 128, 0, 128, 0, 0, 0, 0]);
});

Deno.test("toRgba reads big-endian RGBA and skips an ignored alpha byte", () => {
  const rgba = bitmap([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], 8);
  // kCGImageAlphaNoneSkipLast (5), default byte order.
  const image = toRgba(rgba, { width: 2, height: 2, bytesPerRow: 8, bitsPerPixel: 32, bitmapInfo: 5 });
  assert.deepEqual([...image.data.subarray(0, 8)], [1, 2, 3, 255, 5, 6, 7, 255]);
  // kCGImageAlphaFirst (4), default (big-endian) order: A, R, G, B in memory.
  const argb = toRgba(rgba, { width: 2, height: 2, bytesPerRow: 8, bitsPerPixel: 32, bitmapInfo: 4 });
  assert.deepEqual([...argb.data.subarray(0, 4)], [2, 3, 4, 1]);
});

Deno.test("toRgba refuses layouts it cannot read", () => {
  assert.throws(
    () =>
      toRgba(new Uint8Array(12), { width: 2, height: 2, bytesPerRow: 6, bitsPerPixel: 24, bitmapInfo: 0 }),
    RangeError,
  );
  assert.throws(
    () =>
      toRgba(new Uint8Array(8), {
        width: 2,
        height: 2,
        bytesPerRow: 8,
        bitsPerPixel: 32,
        bitmapInfo: 0x2002,
      }),
    /short/,
  );
});
