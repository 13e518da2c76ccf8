import assert from "node:assert/strict";
import { intersects, uncapturable } from "./screen.ts";
import type { NativeWindow } from "./windows.ts";

function window(
  id: number,
  z: number,
  x: number,
  width: number,
  extra: Partial<NativeWindow> = {},
): NativeWindow {
  return {
    windowId: id,
    pid: 1,
    appName: "a",
    title: `w${id}`,
    bounds: { x, y: 0, width, height: 100 },
    isOnScreen: true,
    zIndex: z,
    handle: null,
    conId: id,
    focused: false,
    floating: false,
    geometryKnown: true,
    ...extra,
  };
}

Deno.test("uncapturable: a visible window nothing covers is vouched for", () => {
  const a = window(1, 0, 0, 100);
  const b = window(2, 1, 100, 100);
  assert.equal(uncapturable(a, [a, b]), null);
});

Deno.test("uncapturable: refused with the reason when covered, hidden or without geometry", () => {
  const a = window(1, 0, 0, 100);
  const over = window(2, 1, 50, 100, { floating: true });
  assert.match(uncapturable(a, [a, over])!, /window 2 .* is on top of it/);
  assert.equal(uncapturable(over, [a, over]), null, "the window on top is fine");
  assert.match(uncapturable(window(3, 0, 0, 10, { isOnScreen: false }), [])!, /not visible/);
  assert.match(uncapturable(window(4, 0, 0, 10, { geometryKnown: false }), [])!, /no window geometry/);
  const hidden = window(5, 2, 0, 100, { isOnScreen: false });
  assert.equal(uncapturable(a, [a, hidden]), null, "a hidden window above covers nothing");
});

Deno.test("intersects: touching edges do not overlap", () => {
  assert.ok(!intersects({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 10, height: 10 }));
  assert.ok(intersects({ x: 0, y: 0, width: 11, height: 10 }, { x: 10, y: 0, width: 10, height: 10 }));
});
