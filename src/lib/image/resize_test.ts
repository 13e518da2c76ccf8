import assert from "node:assert/strict";
import type { RawImage } from "../../ports/screen.ts";
import { randomImage } from "./_test_util.ts";
import { fitWithin, resizeRgba } from "./resize.ts";

/** A one-row (or one-column) grey image from channel values. */
function greyRow(values: number[], vertical = false): RawImage {
  const data = new Uint8Array(values.length * 4);
  values.forEach((v, i) => data.set([v, v, v, 255], i * 4));
  return vertical ? { width: 1, height: values.length, data } : { width: values.length, height: 1, data };
}

function reds(image: RawImage): number[] {
  return Array.from({ length: image.width * image.height }, (_, i) => image.data[i * 4]);
}

function solid(width: number, height: number, rgba: number[]): RawImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = rgba[i & 3];
  return { width, height, data };
}

/** Float area-average reference for reductions by an integer factor. */
function boxReference(image: RawImage, factor: number): Uint8Array {
  const width = image.width / factor,
    height = image.height / factor,
    out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++) {
          for (let dx = 0; dx < factor; dx++) {
            sum += image.data[((y * factor + dy) * image.width + x * factor + dx) * 4 + c];
          }
        }
        out[(y * width + x) * 4 + c] = Math.round(sum / factor / factor);
      }
    }
  }
  return out;
}

Deno.test("fitWithin limits the longest edge and keeps the aspect ratio", () => {
  assert.deepEqual(fitWithin(1920, 1080, 1568), { width: 1568, height: 882 });
  assert.deepEqual(fitWithin(1080, 1920, 1000), { width: 563, height: 1000 });
  assert.deepEqual(fitWithin(3000, 3000, 1024), { width: 1024, height: 1024 });
  assert.deepEqual(fitWithin(10000, 1, 100), { width: 100, height: 1 });
});

Deno.test("fitWithin never enlarges and treats 0 as no limit", () => {
  assert.deepEqual(fitWithin(800, 600, 1568), { width: 800, height: 600 });
  assert.deepEqual(fitWithin(1568, 900, 1568), { width: 1568, height: 900 });
  assert.deepEqual(fitWithin(5000, 4000, 0), { width: 5000, height: 4000 });
});

Deno.test("resizeRgba keeps a solid colour exact at any ratio", () => {
  const colour = [12, 200, 99, 255];
  for (
    const [sw, sh, w, h] of [[1920, 1080, 1568, 882], [7, 5, 3, 2], [3, 3, 10, 7], [100, 1, 7, 1], [
      1,
      1,
      4,
      4,
    ]]
  ) {
    const out = resizeRgba(solid(sw, sh, colour), w, h);
    assert.equal(out.width, w);
    assert.equal(out.height, h);
    assert.equal(out.data.length, w * h * 4);
    const wrong = out.data.findIndex((v, i) => v !== colour[i & 3]);
    assert.equal(wrong, -1, `${sw}x${sh} -> ${w}x${h}: byte ${wrong} is ${out.data[wrong]}`);
  }
});

Deno.test("resizeRgba averages areas when reducing", () => {
  assert.deepEqual(reds(resizeRgba(greyRow([0, 100, 200, 40]), 2, 1)), [50, 120]);
  // 3 -> 2: each output covers 1.5 source pixels.
  assert.deepEqual(reds(resizeRgba(greyRow([0, 90, 180]), 2, 1)), [30, 150]);
  assert.deepEqual(reds(resizeRgba(greyRow([0, 90, 180], true), 1, 2)), [30, 150]);
});

Deno.test("resizeRgba stays within two levels of a float box filter on random pixels", () => {
  for (const factor of [2, 3, 4, 8, 50]) {
    const image = randomImage(factor * 12, factor * 7, true, factor);
    const out = resizeRgba(image, 12, 7);
    const reference = boxReference(image, factor);
    const worst = out.data.reduce((m, v, i) => Math.max(m, Math.abs(v - reference[i])), 0);
    assert.ok(worst <= 2, `factor ${factor}: off by ${worst}`);
  }
});

Deno.test("resizeRgba keeps a one-pixel line visible at a tenfold reduction", () => {
  const image = solid(100, 100, [255, 255, 255, 255]);
  for (let y = 0; y < 100; y++) image.data.set([0, 0, 0, 255], (y * 100 + 43) * 4);
  const out = resizeRgba(image, 10, 10);
  const column = reds(out).filter((_, i) => i % 10 === 4);
  assert.ok(column.every((v) => v < 235 && v > 220), `column 4: ${column}`);
});

Deno.test("resizeRgba interpolates bilinearly when enlarging", () => {
  assert.deepEqual(reds(resizeRgba(greyRow([0, 100]), 4, 1)), [0, 25, 75, 100]);
});

Deno.test("resizeRgba returns a copy for the same size and validates sizes", () => {
  const image = randomImage(5, 4);
  const same = resizeRgba(image, 5, 4);
  assert.deepEqual(same, image);
  assert.notEqual(same.data, image.data);
  assert.throws(() => resizeRgba(image, 0, 4), RangeError);
  assert.throws(() => resizeRgba(image, 2.5, 4), RangeError);
  assert.throws(() => resizeRgba({ width: 5, height: 5, data: image.data }, 2, 2), RangeError);
});
