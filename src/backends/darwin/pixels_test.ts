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
  const image = toRgba(bytes, {
    width: 2,
    height: 2,
    bytesPerRow: 16,
    bitsPerPixel: 32,
    bitsPerComponent: 8,
    bitmapInfo: 0x2002,
  });
  assert.deepEqual([...image.data], [1, 2, 3, 255, 10, 20, 30, 255, 255, 0, 0, 255, 9, 9, 9, 255]);
});

Deno.test("toRgba un-premultiplies translucent pixels", () => {
  const bytes = bitmap([[0, 64, 128, 128], [0, 0, 0, 0], [1, 1, 1, 255], [1, 1, 1, 255]], 8);
  const image = toRgba(bytes, {
    width: 2,
    height: 2,
    bytesPerRow: 8,
    bitsPerPixel: 32,
    bitsPerComponent: 8,
    bitmapInfo: 0x2002,
  });
  assert.deepEqual([...image.data.subarray(0, 8)], [255, 128, 0, 128, 0, 0, 0, 0]);
});

Deno.test("toRgba reads big-endian RGBA and skips an ignored alpha byte", () => {
  const rgba = bitmap([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], 8);
  // kCGImageAlphaNoneSkipLast (5), default byte order.
  const image = toRgba(rgba, {
    width: 2,
    height: 2,
    bytesPerRow: 8,
    bitsPerPixel: 32,
    bitsPerComponent: 8,
    bitmapInfo: 5,
  });
  assert.deepEqual([...image.data.subarray(0, 8)], [1, 2, 3, 255, 5, 6, 7, 255]);
  // kCGImageAlphaFirst (4), default (big-endian) order: A, R, G, B in memory.
  const argb = toRgba(rgba, {
    width: 2,
    height: 2,
    bytesPerRow: 8,
    bitsPerPixel: 32,
    bitsPerComponent: 8,
    bitmapInfo: 4,
  });
  assert.deepEqual([...argb.data.subarray(0, 4)], [2, 3, 4, 1]);
});

Deno.test("toRgba reads 10-bit, half-float and packed 16-bit layouts", () => {
  // kCGImagePixelFormatRGB101010 | kCGBitmapByteOrder32Little | kCGImageAlphaNoneSkipFirst
  const ten = new Uint8Array(8);
  new DataView(ten.buffer).setUint32(0, (1023 << 20) | (512 << 10) | 0, true);
  new DataView(ten.buffer).setUint32(4, (0 << 20) | (0 << 10) | 1023, true);
  const deep = toRgba(ten, {
    width: 2,
    height: 1,
    bytesPerRow: 8,
    bitsPerPixel: 32,
    bitsPerComponent: 10,
    bitmapInfo: 0x32006,
  });
  assert.deepEqual([...deep.data], [255, 128, 0, 255, 0, 0, 255, 255]);
  // 64 bpp half-float RGBA, 16-bit little-endian, premultiplied last (an HDR display): 1.0 = 0x3c00, 0.5 = 0x3800.
  const halfs = new Uint8Array(new Uint16Array([0x3c00, 0x3800, 0, 0x3c00]).buffer);
  const hdr = toRgba(halfs, {
    width: 1,
    height: 1,
    bytesPerRow: 8,
    bitsPerPixel: 64,
    bitsPerComponent: 16,
    bitmapInfo: 0x1101,
  });
  assert.deepEqual([...hdr.data], [255, 128, 0, 255]);
  // 16-bit integer RGBA, big-endian (default order), alpha last.
  const sixteen = new Uint8Array([0xff, 0xff, 0, 0, 0x80, 0, 0xff, 0xff]);
  const int16 = toRgba(sixteen, {
    width: 1,
    height: 1,
    bytesPerRow: 8,
    bitsPerPixel: 64,
    bitsPerComponent: 16,
    bitmapInfo: 3,
  });
  assert.deepEqual([...int16.data], [255, 0, 128, 255]);
  // RGB565, 16-bit little-endian: pure green.
  const packed = new Uint8Array(new Uint16Array([0x07e0]).buffer);
  const green = toRgba(packed, {
    width: 1,
    height: 1,
    bytesPerRow: 2,
    bitsPerPixel: 16,
    bitsPerComponent: 5,
    bitmapInfo: 0x21000,
  });
  assert.deepEqual([...green.data], [0, 255, 0, 255]);
});

Deno.test("toRgba refuses layouts it cannot read with a driver error", () => {
  const refused = (error: Error & { code?: string }) => error.code === "capture_failed";
  assert.throws(
    () =>
      toRgba(new Uint8Array(12), {
        width: 2,
        height: 2,
        bytesPerRow: 6,
        bitsPerPixel: 24,
        bitsPerComponent: 6,
        bitmapInfo: 0,
      }),
    refused,
  );
  assert.throws(
    () =>
      toRgba(new Uint8Array(16), {
        width: 2,
        height: 1,
        bytesPerRow: 16,
        bitsPerPixel: 64,
        bitsPerComponent: 8,
        bitmapInfo: 0,
      }),
    refused,
  );
  assert.throws(
    () =>
      toRgba(new Uint8Array(8), {
        width: 2,
        height: 2,
        bytesPerRow: 8,
        bitsPerPixel: 32,
        bitsPerComponent: 8,
        bitmapInfo: 0x2002,
      }),
    /short/,
  );
});
