import assert from "node:assert/strict";
import { cropBgrx, halvePixels, samePixels } from "./frame_feed.ts";

Deno.test("halvePixels averages 2x2 blocks and swaps BGRX to RGBA", async () => {
  // 4x2 BGRX: left block blue (B=200), right block red (R=100) with one brighter pixel.
  const bgrx = new Uint8Array([
    200,
    0,
    0,
    0,
    200,
    0,
    0,
    0,
    0,
    0,
    100,
    0,
    0,
    0,
    100,
    0,
    200,
    0,
    0,
    0,
    200,
    0,
    0,
    0,
    0,
    0,
    100,
    0,
    0,
    0,
    140,
    0,
  ]);
  const out = await halvePixels(bgrx, 4, 2, true);
  assert.equal(out.width, 2);
  assert.equal(out.height, 1);
  assert.deepEqual([...out.data], [0, 0, 200, 255, 110, 0, 0, 255]);
  const again = await halvePixels(out.data, 2, 1, false);
  assert.equal(again.width, 1);
  assert.equal(again.height, 0);
});

Deno.test("halvePixels awaits yieldTo between bands of rows", async () => {
  let yields = 0;
  await halvePixels(new Uint8Array(8 * 512 * 4), 8, 512, true, () => void yields++);
  assert.equal(yields, 4, "one yield per 64 output rows");
});

Deno.test("samePixels tells any changed byte, aligned or not", () => {
  const a = new Uint8Array(64), b = new Uint8Array(64);
  assert.equal(samePixels(a, b), true);
  b[63] = 1;
  assert.equal(samePixels(a, b), false);
  assert.equal(samePixels(a.subarray(1), b.subarray(1)), false);
  assert.equal(samePixels(a.subarray(1, 10), b.subarray(1, 10)), true);
  assert.equal(samePixels(a, a.subarray(1)), false);
});

Deno.test("cropBgrx cuts a rectangle out of BGRX rows as RGBA", () => {
  // 3x2 BGRX, each pixel's blue byte its index.
  const bgrx = new Uint8Array(24);
  for (let i = 0; i < 6; i++) bgrx[i * 4] = i;
  const crop = cropBgrx(bgrx, 3, { x: 1, y: 0, width: 2, height: 2 });
  assert.deepEqual([...crop.data], [0, 0, 1, 255, 0, 0, 2, 255, 0, 0, 4, 255, 0, 0, 5, 255]);
});
