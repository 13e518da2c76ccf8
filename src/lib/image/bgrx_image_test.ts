import assert from "node:assert/strict";
import { bgrxImage, bgrxToRgba, lendBgrx, peekBgrx, pixelByteLength, returnBgrx } from "./bgrx_image.ts";

// Two pixels: B G R X = (3, 2, 1, 0) and (6, 5, 4, 9).
const BGRX = [3, 2, 1, 0, 6, 5, 4, 9];
const RGBA = [1, 2, 3, 255, 4, 5, 6, 255];

Deno.test("bgrxToRgba swaps red and blue and makes every pixel opaque", () => {
  assert.deepEqual([...bgrxToRgba(new Uint8Array(BGRX))], RGBA);
  const unaligned = new Uint8Array(BGRX.length + 1);
  unaligned.set(BGRX, 1);
  assert.deepEqual([...bgrxToRgba(unaligned.subarray(1))], RGBA);
});

Deno.test("bgrxImage converts on the first read of data and then is plain RGBA", () => {
  const image = bgrxImage(2, 1, new Uint8Array(BGRX));
  assert.deepEqual([...peekBgrx(image)!], BGRX, "BGRX until read");
  assert.deepEqual([...image.data], RGBA);
  assert.equal(image.data, image.data, "converted once");
  assert.equal(peekBgrx(image), null, "RGBA from now on");
  assert.equal(lendBgrx(image), null);
});

Deno.test("bgrxImage copies and serializes as an RGBA RawImage", () => {
  const spread = { ...bgrxImage(2, 1, new Uint8Array(BGRX)) };
  assert.deepEqual({ ...spread, data: [...spread.data] }, { width: 2, height: 1, data: RGBA });
  const cloned = structuredClone(bgrxImage(2, 1, new Uint8Array(BGRX)));
  assert.deepEqual([...cloned.data], RGBA);
  assert.deepEqual(Object.keys(bgrxImage(2, 1, new Uint8Array(BGRX))), ["width", "height", "data"]);
});

Deno.test("bgrxImage lends its bytes once and refuses reads until they come back", () => {
  const image = bgrxImage(2, 1, new Uint8Array(BGRX));
  const lent = lendBgrx(image)!;
  assert.deepEqual([...lent], BGRX);
  assert.equal(lendBgrx(image), null, "not twice");
  assert.equal(peekBgrx(image), null);
  assert.throws(() => image.data, /encoded off-thread/);
  returnBgrx(image, new Uint8Array(BGRX)); // the same pixels in a new buffer, as after a transfer
  assert.deepEqual([...image.data], RGBA);
});

Deno.test("bgrxImage takes assigned RGBA and rejects a size that does not match", () => {
  const image = bgrxImage(2, 1, new Uint8Array(BGRX));
  image.data = new Uint8Array([9, 9, 9, 255, 8, 8, 8, 255]);
  assert.deepEqual([...image.data], [9, 9, 9, 255, 8, 8, 8, 255]);
  assert.equal(peekBgrx(image), null);
  assert.throws(() => bgrxImage(2, 2, new Uint8Array(BGRX)), RangeError);
});

Deno.test("pixelByteLength sizes a BGRX image without converting it, even while it is lent", () => {
  const image = bgrxImage(2, 1, new Uint8Array(BGRX));
  assert.equal(pixelByteLength(image), 8);
  assert.ok(peekBgrx(image), "not converted");
  lendBgrx(image);
  assert.equal(pixelByteLength(image), 8);
  assert.equal(
    pixelByteLength({ width: 1, height: 1, data: new Uint8Array(12) }),
    12,
    "plain: data's length",
  );
});
