import assert from "node:assert/strict";
import { interpolate } from "./gesture.ts";

Deno.test("interpolate spaces points evenly by arc length and keeps both ends", () => {
  assert.deepEqual(interpolate([{ x: 0, y: 0 }, { x: 100, y: 0 }], 4), [
    { x: 0, y: 0 },
    { x: 25, y: 0 },
    { x: 50, y: 0 },
    { x: 75, y: 0 },
    { x: 100, y: 0 },
  ]);
  // An L: 100 right then 100 down, in 4 steps of 50.
  assert.deepEqual(interpolate([{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }], 4), [
    { x: 0, y: 0 },
    { x: 50, y: 0 },
    { x: 100, y: 0 },
    { x: 100, y: 50 },
    { x: 100, y: 100 },
  ]);
});

Deno.test("interpolate handles one step, a single vertex and repeated vertices", () => {
  assert.deepEqual(interpolate([{ x: 1.4, y: 2.6 }, { x: 9, y: 9 }], 1), [{ x: 1, y: 3 }, { x: 9, y: 9 }]);
  assert.deepEqual(interpolate([{ x: 5, y: 5 }], 2), [{ x: 5, y: 5 }, { x: 5, y: 5 }, { x: 5, y: 5 }]);
  assert.deepEqual(interpolate([{ x: 0, y: 0 }, { x: 0, y: 0 }, { x: 10, y: 0 }], 2), [
    { x: 0, y: 0 },
    { x: 5, y: 0 },
    { x: 10, y: 0 },
  ]);
});
