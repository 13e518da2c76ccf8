import assert from "node:assert/strict";
import { DriverError } from "../../src/ports/errors.ts";
import { fromScreen, regionToDisplay, type SessionScreen, shotSizeFor, toScreen } from "./session_screen.ts";

const screen: SessionScreen = {
  display: {
    id: "0",
    name: "screen",
    primary: true,
    bounds: { x: 0, y: 0, width: 1920, height: 1080 },
    nativeWidth: 1920,
    nativeHeight: 1080,
    scaleFactor: 1,
  } as SessionScreen["display"],
  shot: shotSizeFor(1920, 1080),
};

Deno.test("shotSizeFor keeps the aspect, the edge and pixel limits, and never upscales", () => {
  assert.deepEqual(shotSizeFor(1920, 1080), { width: 1429, height: 804 });
  assert.deepEqual(shotSizeFor(1024, 768), { width: 1024, height: 768 });
  const wide = shotSizeFor(5120, 1440);
  assert.ok(wide.width <= 1456 && wide.width * wide.height <= 1_150_000);
});

Deno.test("toScreen scales screenshot pixels to the display and refuses points outside, unclamped", () => {
  assert.deepEqual(toScreen(screen, [0, 0]), { x: 0, y: 0 });
  assert.deepEqual(toScreen(screen, [1428, 803]), { x: 1919, y: 1079 });
  const mid = toScreen(screen, [714, 402]);
  assert.ok(Math.abs(mid.x - 960) <= 1 && Math.abs(mid.y - 540) <= 1, JSON.stringify(mid));
  for (const point of [[1429, 0], [0, 804], [-1, 5], [5, -0.5]]) {
    assert.throws(
      () => toScreen(screen, point),
      (e: unknown) => (e as DriverError).code === "coordinate_out_of_bounds",
    );
  }
  assert.deepEqual(fromScreen(screen, { x: 960, y: 540 }), { x: 714, y: 402 });
});

Deno.test("regionToDisplay: the display area a screenshot region shows; empty or outside is refused", () => {
  assert.deepEqual(regionToDisplay(screen, [0, 0, 1429, 804]), { x: 0, y: 0, width: 1920, height: 1080 });
  const r = regionToDisplay(screen, [100, 100, 200, 150]);
  assert.ok(r.width >= 134 && r.width <= 135 && r.height >= 67 && r.height <= 68, JSON.stringify(r));
  assert.throws(
    () => regionToDisplay(screen, [10, 10, 10, 20]),
    (e: unknown) => (e as DriverError).code === "invalid_arguments",
  );
  assert.throws(
    () => regionToDisplay(screen, [0, 0, 1430, 10]),
    (e: unknown) => (e as DriverError).code === "coordinate_out_of_bounds",
  );
});
