import assert from "node:assert/strict";
import { cropRgba } from "./crop.ts";
import { randomImage } from "./_test_util.ts";

const image = randomImage(10, 8, true, 42);

function pixel(x: number, y: number, source = image): number[] {
  return [...source.data.subarray((y * source.width + x) * 4, (y * source.width + x) * 4 + 4)];
}

Deno.test("cropRgba copies the pixels inside the rectangle", () => {
  const out = cropRgba(image, { x: 2, y: 3, width: 4, height: 2 });
  assert.equal(out.width, 4);
  assert.equal(out.height, 2);
  for (let y = 0; y < 2; y++) {
    for (let x = 0; x < 4; x++) assert.deepEqual(pixel(x, y, out), pixel(x + 2, y + 3));
  }
});

Deno.test("cropRgba clips to the image", () => {
  const out = cropRgba(image, { x: -3, y: 6, width: 5, height: 10 });
  assert.equal(out.width, 2);
  assert.equal(out.height, 2);
  assert.deepEqual(pixel(1, 1, out), pixel(1, 7));
  const whole = cropRgba(image, { x: -1, y: -1, width: 100, height: 100 });
  assert.deepEqual(whole, image);
  assert.notEqual(whole.data, image.data);
});

Deno.test("cropRgba grows fractional edges outward", () => {
  const out = cropRgba(image, { x: 1.5, y: 0.2, width: 2, height: 1 });
  assert.deepEqual([out.width, out.height], [3, 2]); // x 1..3.5 -> 1..4, y 0.2..1.2 -> 0..2
  assert.deepEqual(pixel(0, 0, out), pixel(1, 0));
});

Deno.test("cropRgba gives an empty image outside the bounds and rejects non-finite rectangles", () => {
  assert.deepEqual(cropRgba(image, { x: 20, y: 0, width: 5, height: 5 }), {
    width: 0,
    height: 0,
    data: new Uint8Array(0),
  });
  assert.equal(cropRgba(image, { x: 2, y: 2, width: 0, height: 3 }).width, 0);
  assert.throws(() => cropRgba(image, { x: NaN, y: 0, width: 1, height: 1 }), RangeError);
});
