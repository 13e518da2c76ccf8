import assert from "node:assert/strict";
import type { GreyImage } from "../../lib/image/grey.ts";
import { controlBox } from "./control_boxes.ts";

/** A 200x80 light image with a framed button (border 200 on 240) around a dark label. */
function button(): GreyImage {
  const width = 200, height = 80;
  const data = new Uint8Array(width * height).fill(245);
  const fill = (x0: number, y0: number, w: number, h: number, value: number) => {
    for (let y = y0; y < y0 + h; y++) data.fill(value, y * width + x0, y * width + x0 + w);
  };
  fill(20, 20, 137, 34, 200); // border
  fill(21, 21, 135, 32, 240); // face
  fill(60, 32, 50, 10, 60); // label
  return { width, height, data };
}

const label = { x: 60, y: 32, width: 50, height: 10 };

Deno.test("controlBox finds the frame around a label, border included", () => {
  assert.deepEqual(controlBox(button(), label), { x: 20, y: 20, width: 137, height: 34 });
});

Deno.test("controlBox finds nothing without a frame, or with clutter beside the label", () => {
  const bare = button();
  bare.data.fill(245);
  bare.data.fill(60, 32 * 200 + 60, 32 * 200 + 110);
  assert.equal(controlBox(bare, label), null);
  const cluttered = button();
  // An icon half as tall as the label, between the label and the right border.
  for (let y = 34; y < 40; y++) cluttered.data.fill(90, y * 200 + 130, y * 200 + 136);
  assert.equal(controlBox(cluttered, label), null);
});

Deno.test("controlBox gives up on a label at the image edge", () => {
  assert.equal(controlBox(button(), { x: 0, y: 32, width: 50, height: 10 }), null);
});
