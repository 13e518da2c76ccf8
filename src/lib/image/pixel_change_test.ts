import assert from "node:assert/strict";
import { changedBox, emptyMask, isCaretBlink, maskChanges, type PixelFrame } from "./pixel_change.ts";

function frame(width: number, height: number, paint: (x: number, y: number) => number = () => 0): PixelFrame {
  const words = new Uint32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) words[y * width + x] = paint(x, y);
  return { width, height, words };
}

Deno.test("changedBox bounds the differing pixels and ignores the padding byte", () => {
  const a = frame(64, 48);
  const b = frame(64, 48, (x, y) => (x >= 10 && x < 20 && y >= 5 && y < 8 ? 0x00ff0000 : 0xff000000));
  assert.deepEqual(changedBox(a, b), { x: 10, y: 5, width: 10, height: 3 });
  assert.equal(changedBox(a, frame(64, 48, () => 0xff000000)), null, "only the X byte differs");
});

Deno.test("changedBox reports the whole frame when the size changed", () => {
  assert.deepEqual(changedBox(frame(10, 10), frame(12, 10)), { x: 0, y: 0, width: 12, height: 10 });
});

Deno.test("maskChanges masks an animated tile and its neighbours, and changedBox skips them", () => {
  const still = frame(64, 64);
  const spun = frame(64, 64, (x, y) => (x === 40 && y === 40 ? 1 : 0));
  const mask = emptyMask(still);
  maskChanges(mask, still, spun);
  const later = frame(64, 64, (x, y) => (x === 33 && y === 47 ? 2 : 0));
  assert.equal(changedBox(still, later, mask), null, "a change inside the masked tiles is the animation");
  const elsewhere = frame(64, 64, (x, y) => (x === 2 && y === 2 ? 3 : 0));
  assert.deepEqual(changedBox(still, elsewhere, mask), { x: 2, y: 2, width: 1, height: 1 });
});

Deno.test("isCaretBlink takes a thin column for a caret, not a glyph or a widget", () => {
  assert.equal(isCaretBlink({ x: 5, y: 5, width: 1, height: 18 }), true);
  assert.equal(isCaretBlink({ x: 5, y: 5, width: 9, height: 18 }), false);
  assert.equal(isCaretBlink({ x: 5, y: 5, width: 2, height: 300 }), false);
});
