import assert from "node:assert/strict";
import type { GreyImage } from "../../../lib/image/grey.ts";
import { BAND_OVERLAP, planBands } from "./bands.ts";

/** 400x1000 white image with "text" (alternating columns) on rows 100-110 and 600-900. */
function page(): GreyImage {
  const width = 400, height = 1000;
  const data = new Uint8Array(width * height).fill(255);
  for (const [from, to] of [[100, 110], [600, 900]]) {
    for (let y = from; y < to; y++) {
      if (y % 20 >= 12) continue; // blank rows between lines
      for (let x = 0; x < width; x += 2) data[y * width + x] = 0;
    }
  }
  return { width, height, data };
}

Deno.test("planBands splits the text evenly on quiet rows, with overlapping bands", () => {
  const bands = planBands(page(), 2);
  assert.equal(bands.length, 2);
  const [a, b] = bands;
  assert.equal(a.keepTop, 0);
  assert.equal(b.keepBottom, 1000);
  assert.equal(a.keepBottom, b.keepTop, "the kept parts tile the page");
  const cut = a.keepBottom;
  assert.ok(cut > 600 && cut < 900, `the cut ${cut} halves the text, which is mostly below row 600`);
  assert.ok(cut % 20 >= 12, `the cut ${cut} falls between text lines`);
  assert.ok(a.bottom > cut && a.bottom <= cut + BAND_OVERLAP, "band a reads past the cut");
  assert.ok(b.top < cut && b.top >= cut - BAND_OVERLAP, "band b reads before the cut");
});

Deno.test("planBands keeps one band for one thread and short images, and none for a blank page", () => {
  assert.deepEqual(planBands(page(), 1), [{
    top: 84,
    bottom: 908,
    left: 0,
    right: 400,
    keepTop: 0,
    keepBottom: 1000,
  }]);
  assert.deepEqual(planBands({ width: 400, height: 1000, data: new Uint8Array(400_000).fill(7) }, 4), []);
  const short = page();
  short.height = 150;
  short.data = short.data.subarray(0, 400 * 150);
  assert.equal(planBands(short, 2).length, 1);
});

Deno.test("planBands trims blank columns and rows around the text", () => {
  const width = 1000, height = 600;
  const data = new Uint8Array(width * height);
  for (let y = 200; y < 210; y++) for (let x = 300; x < 500; x += 2) data[y * width + x] = 255;
  const [band] = planBands({ width, height, data }, 1);
  assert.deepEqual(band, { top: 184, bottom: 226, left: 283, right: 516, keepTop: 0, keepBottom: 600 });
});
