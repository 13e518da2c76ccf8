import assert from "node:assert/strict";
import type { PerceivedWord } from "../../ports/perception.ts";
import { textRegions, union } from "./text_regions.ts";

function word(text: string, x: number, y = 10, width = text.length * 7, confidence = 0.9): PerceivedWord {
  return { text, bounds: { x, y, width, height: 10 }, confidence };
}

Deno.test("textRegions keeps close words together and splits a line at a wide gap", () => {
  const line = { words: [word("Click", 10), word("target", 50), word("Context", 200)] };
  const regions = textRegions([line], 0.5);
  assert.deepEqual(regions.map((r) => r.text), ["Click target", "Context"]);
  assert.deepEqual(regions[0].bounds, { x: 10, y: 10, width: 82, height: 10 });
  assert.equal(regions[0].words.length, 2);
});

Deno.test("textRegions drops low-confidence and symbol-only readings", () => {
  const line = { words: [word("©", 10), word("Reset", 30), word("oa", 80, 10, 14, 0.2), word("|__|", 120)] };
  const regions = textRegions([line], 0.5);
  assert.deepEqual(regions.map((r) => r.text), ["Reset"]);
  assert.equal(textRegions([{ words: [word("x", 0, 0, 7, 0.1)] }], 0.5).length, 0);
});

Deno.test("textRegions orders regions top to bottom, then left to right, with mean confidence", () => {
  const regions = textRegions([
    { words: [word("Second", 10, 40)] },
    { words: [word("Right", 300, 10, 35, 0.8), word("Left", 10, 10, 28, 1)] },
  ], 0);
  assert.deepEqual(regions.map((r) => r.text), ["Left", "Right", "Second"]);
  assert.equal(regions[1].confidence, 0.8);
});

Deno.test("union covers every rectangle", () => {
  assert.deepEqual(union([{ x: 5, y: 5, width: 10, height: 10 }, { x: 0, y: 8, width: 3, height: 20 }]), {
    x: 0,
    y: 5,
    width: 15,
    height: 23,
  });
});
