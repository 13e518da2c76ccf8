import assert from "node:assert/strict";
import { randomBytes, randomImage, uiImage } from "./_test_util.ts";
import { pngKernel } from "./_png_kernel.ts";
import { PngRowFilter } from "./_png_filter.ts";
import { pngSimd } from "./_png_simd.ts";

const simd = pngSimd();

/** The JS filter's scanlines for the same input. */
function jsRows(
  pixels: Uint8Array,
  width: number,
  height: number,
  bpp: 3 | 4,
  bgrx: boolean,
  filter: "up" | "none",
) {
  const rows = new PngRowFilter(new Int32Array(pixels.slice().buffer), width, bpp, filter, bgrx);
  const out = new Uint8Array(rows.stride * height);
  rows.filterRows(0, height, out);
  return out;
}

Deno.test("pngSimd is available in this runtime", () => {
  assert.ok(simd, "WebAssembly SIMD validates and instantiates");
});

Deno.test("pngSimd filterImage matches the JS filter byte for byte", () => {
  const images = [
    ["ui 1366x741", uiImage(1366, 741)],
    ["random 1x1", randomImage(1, 1, false, 1)],
    ["random 3x5", randomImage(3, 5, false, 2)],
    ["random 17x9", randomImage(17, 9, false, 3)],
    ["random alpha 13x7", randomImage(13, 7, true, 4)],
    [
      "random alpha in the last pixel only",
      (() => {
        const image = randomImage(6, 5, false, 5);
        image.data[image.data.length - 1] = 7;
        return image;
      })(),
    ],
  ] as const;
  for (const [label, image] of images) {
    const opaque = image.data.every((v, i) => i % 4 !== 3 || v === 255);
    for (const filter of ["up", "none"] as const) {
      for (const bgrx of [false, true]) {
        const { rows, bpp } = simd!.filterImage(
          image.data,
          image.width,
          image.height,
          bgrx,
          filter === "up" ? 2 : 0,
        );
        assert.equal(bpp, bgrx || opaque ? 3 : 4, `${label}: bpp`);
        const expected = jsRows(image.data, image.width, image.height, bpp, bgrx, filter);
        assert.deepEqual(rows, expected, `${label} ${filter} ${bgrx ? "BGRX" : "RGBA"}`);
      }
    }
  }
});

Deno.test("pngSimd filterImage grows its memory for a larger image after a smaller one", () => {
  const small = randomImage(4, 4, false, 6);
  simd!.filterImage(small.data, 4, 4, false, 2);
  const large = uiImage(1920, 1080);
  const { rows, bpp } = simd!.filterImage(large.data, 1920, 1080, false, 2);
  assert.equal(bpp, 3);
  assert.deepEqual(rows, jsRows(large.data, 1920, 1080, 3, false, "up"));
});

Deno.test("pngSimd adler32 matches the JS sum, in its memory and copied in", () => {
  const simd = pngSimd()!;
  const { adler32 } = pngKernel();
  for (const size of [0, 5, 16, 17, 5552, 5553, 5568, 100_000, 1_000_003]) {
    const bytes = randomBytes(size, size + 3);
    bytes.fill(255, 0, Math.min(size, 9000)); // the largest sums
    assert.equal(simd.adler32(bytes), adler32(bytes), `size ${size}`);
    assert.equal(simd.adler32(bytes, 0x12345678), adler32(bytes, 0x12345678), `size ${size}, continued`);
  }
  const image = uiImage(301, 77);
  const { rows } = simd.filterImage(image.data, 301, 77, false, 2);
  const copy = rows.slice();
  assert.equal(simd.adler32(rows), adler32(copy), "filtered rows summed in place");
  assert.deepEqual(rows, copy, "and left as they were");
});
