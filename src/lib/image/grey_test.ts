import assert from "node:assert/strict";
import { toGrey, upscaleGrey2x } from "./grey.ts";

Deno.test("toGrey weighs red, green and blue as luma", () => {
  const grey = toGrey({
    width: 4,
    height: 1,
    data: new Uint8Array([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255]),
  });
  assert.deepEqual([...grey.data], [255, 0, 76, 150]);
});

Deno.test("upscaleGrey2x doubles the size and interpolates between pixels", () => {
  const big = upscaleGrey2x({ width: 2, height: 1, data: new Uint8Array([0, 200]) });
  assert.equal(big.width, 4);
  assert.equal(big.height, 2);
  assert.deepEqual([...big.data.subarray(0, 4)], [0, 50, 150, 200]);
  assert.deepEqual([...big.data.subarray(4)], [0, 50, 150, 200]);
});
