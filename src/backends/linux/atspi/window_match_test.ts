import assert from "node:assert/strict";
import { frameOffset, matchTopLevel, rectDistance } from "./window_match.ts";

const at = (x: number, y: number, width: number, height: number) => ({
  rect: { x, y, width, height },
  showing: true,
});

Deno.test("matchTopLevel maps a single top level trivially", () => {
  assert.equal(matchTopLevel([{ rect: null, showing: false }], { x: 0, y: 0, width: 10, height: 10 }), 0);
  assert.equal(matchTopLevel([], null), null);
});

Deno.test("matchTopLevel picks the closest candidate within 160 px", () => {
  const window = { x: 100, y: 130, width: 800, height: 570 };
  // The frame's extents include a 30 px title bar: distance 60.
  assert.equal(matchTopLevel([at(300, 200, 400, 300), at(100, 100, 800, 600)], window), 1);
});

Deno.test("matchTopLevel refuses a best match farther than 160 px", () => {
  const window = { x: 0, y: 0, width: 500, height: 500 };
  assert.equal(matchTopLevel([at(0, 0, 600, 570), at(1000, 0, 100, 100)], window), null);
});

Deno.test("matchTopLevel needs the best to beat the runner-up by 24 px", () => {
  const window = { x: 100, y: 100, width: 400, height: 300 };
  const twins = [at(110, 100, 400, 300), at(100, 120, 400, 300)]; // 10 vs 20
  assert.equal(matchTopLevel(twins, window), null);
  const clear = [at(110, 100, 400, 300), at(100, 140, 400, 300)]; // 10 vs 40
  assert.equal(matchTopLevel(clear, window), 0);
});

Deno.test("matchTopLevel falls back to the only showing candidate", () => {
  const candidates = [{ rect: null, showing: false }, { rect: null, showing: true }];
  assert.equal(matchTopLevel(candidates, null), 1);
  assert.equal(matchTopLevel([...candidates, { rect: null, showing: true }], null), null);
});

Deno.test("rectDistance compares a top level at (0, 0) as if it sat at the window origin", () => {
  const window = { x: 500, y: 400, width: 800, height: 600 };
  assert.equal(rectDistance({ x: 0, y: 0, width: 800, height: 600 }, window), 0);
  assert.equal(rectDistance({ x: 10, y: 10, width: 800, height: 600 }, window), 880);
});

Deno.test("frameOffset rebases only window-relative top levels", () => {
  const window = { x: 500, y: 400, width: 800, height: 600 };
  assert.deepEqual(frameOffset({ x: 0, y: 0, width: 800, height: 600 }, window), { dx: 500, dy: 400 });
  assert.deepEqual(frameOffset({ x: 500, y: 370, width: 800, height: 630 }, window), { dx: 0, dy: 0 });
  assert.deepEqual(frameOffset({ x: 0, y: 0, width: 800, height: 600 }, { ...window, x: 0, y: 0 }), {
    dx: 0,
    dy: 0,
  });
  assert.deepEqual(frameOffset(null, window), { dx: 0, dy: 0 });
});

Deno.test("frameOffset adds GTK4's client-side border and leaves a maximized frame at (0, 0) alone", () => {
  // gtk4-widget-factory under openbox: the surface is inset 5 px inside the X window.
  const gtk4 = { x: 122, y: 101, width: 1676, height: 878 };
  assert.deepEqual(frameOffset({ x: 0, y: 0, width: 1666, height: 868 }, gtk4), { dx: 127, dy: 106 });
  assert.deepEqual(frameOffset({ x: 0, y: 0, width: 1666, height: 868 }, { ...gtk4, x: 0, y: 0 }), {
    dx: 5,
    dy: 5,
  });
  // LibreOffice maximized: the frame (title bar included) starts at (0, 0), the client area 19 px lower.
  const maximized = { x: 0, y: 19, width: 1920, height: 1061 };
  assert.deepEqual(frameOffset({ x: 0, y: 0, width: 1920, height: 1080 }, maximized), { dx: 0, dy: 0 });
});
