import assert from "node:assert/strict";
import type { RawImage } from "../../ports/screen.ts";
import { hasImageMagick, magickDecode, meanRgbError, randomImage, uiImage } from "./_test_util.ts";
import { encodeJpeg } from "./jpeg.ts";

const imageMagick = await hasImageMagick();
if (!imageMagick) console.warn("jpeg_test: ImageMagick `convert` not found; skipping the decoder tests");

/** Width and height from the SOF0 segment, or null if there is none. */
function sof0Size(jpeg: Uint8Array): { width: number; height: number } | null {
  for (let at = 2; at + 4 < jpeg.length;) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1], length = (jpeg[at + 2] << 8) | jpeg[at + 3];
    if (marker === 0xc0) {
      return { height: (jpeg[at + 5] << 8) | jpeg[at + 6], width: (jpeg[at + 7] << 8) | jpeg[at + 8] };
    }
    if (marker === 0xda) return null;
    at += 2 + length;
  }
  return null;
}

function gradient(width: number, height: number): RawImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      data.set([(x * 255) / width, (y * 255) / height, 128, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

Deno.test("encodeJpeg writes SOI, a baseline SOF0 of the right size, and EOI", async () => {
  for (const [width, height] of [[1, 1], [17, 9], [500, 333]]) {
    const jpeg = await encodeJpeg(randomImage(width, height));
    assert.deepEqual([jpeg[0], jpeg[1]], [0xff, 0xd8]);
    assert.deepEqual([jpeg.at(-2), jpeg.at(-1)], [0xff, 0xd9]);
    assert.deepEqual(sof0Size(jpeg), { width, height });
  }
});

Deno.test("encodeJpeg output shrinks with lower quality", async () => {
  const image = uiImage(320, 200);
  const [low, high] = [await encodeJpeg(image, 30), await encodeJpeg(image, 95)];
  assert.ok(low.length < high.length, `${low.length} >= ${high.length}`);
});

Deno.test("encodeJpeg rejects bad sizes and qualities", async () => {
  await assert.rejects(() => encodeJpeg({ width: 2, height: 2, data: new Uint8Array(3) }), RangeError);
  await assert.rejects(() => encodeJpeg({ width: 0, height: 0, data: new Uint8Array(0) }), RangeError);
  await assert.rejects(() => encodeJpeg(randomImage(2, 2), NaN), RangeError);
});

Deno.test({
  name: "encodeJpeg output decodes in ImageMagick to the right size and colours",
  ignore: !imageMagick,
  async fn() {
    const cases: [string, RawImage, number, number][] = [
      // label, image, quality, max mean RGB error
      ["gradient", gradient(203, 117), 80, 2],
      ["ui", uiImage(500, 300), 80, 8],
      ["ui q95", uiImage(500, 300), 95, 4],
      ["tiny", gradient(3, 2), 90, 40], // 4:2:0 on 2x2 colour changes: ImageMagick's own encoder errs as much
    ];
    for (const [label, image, quality, limit] of cases) {
      const decoded = await magickDecode(await encodeJpeg(image, quality), "jpg");
      assert.equal(decoded.length, image.data.length, `${label}: wrong size`);
      const error = meanRgbError(decoded, image.data);
      assert.ok(error < limit, `${label}: mean error ${error.toFixed(2)} >= ${limit}`);
    }
  },
});

Deno.test({
  name: "encodeJpeg keeps flat colours of a 4:2:0 image close in ImageMagick",
  ignore: !imageMagick,
  async fn() {
    const width = 64, height = 32, data = new Uint8Array(width * height * 4);
    const colours = [[220, 30, 40], [20, 180, 60], [40, 80, 230], [250, 250, 250]];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) data.set([...colours[x >> 4], 255], (y * width + x) * 4);
    }
    const decoded = await magickDecode(await encodeJpeg({ width, height, data }, 90), "jpg");
    for (const [i, colour] of colours.entries()) {
      const at = (16 * width + i * 16 + 8) * 4; // centre of each 16-pixel stripe
      const got = [...decoded.subarray(at, at + 3)];
      assert.ok(got.every((v, c) => Math.abs(v - colour[c]) <= 6), `stripe ${i}: ${got} vs ${colour}`);
    }
  },
});
