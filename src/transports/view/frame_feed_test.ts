import assert from "node:assert/strict";
import { halvePixels, samePixels } from "./frame_feed.ts";

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
