import assert from "node:assert/strict";
import { glidePath, springEase } from "./glide.ts";
import { defaultMotion } from "./motion.ts";

Deno.test("glidePath starts at the cursor, ends exactly on the target and bows to one side", () => {
  const motion = defaultMotion();
  const path = glidePath({ x: 100, y: 100 }, { x: 500, y: 100 }, motion);
  assert.deepEqual(path(0), { x: 100, y: 100 });
  assert.deepEqual(path(1), { x: 500, y: 100 });
  assert.deepEqual(path(2), { x: 500, y: 100 });
  // Travelling right, the bow is on the left of the direction of travel (screen y grows downwards).
  assert.ok(path(0.3).y > 100 + 5, `bowed: ${JSON.stringify(path(0.3))}`);
  assert.ok(path(0.3).x > 100 && path(0.3).x < 500);
});

Deno.test("glidePath goes straight with arc_size 0 and for moves shorter than turn_radius", () => {
  const straight = glidePath({ x: 0, y: 0 }, { x: 300, y: 0 }, { ...defaultMotion(), arc_size: 0 });
  const short = glidePath({ x: 0, y: 0 }, { x: 10, y: 0 }, { ...defaultMotion(), turn_radius: 24 });
  for (const t of [0.1, 0.4, 0.7]) {
    assert.ok(Math.abs(straight(t).y) < 1e-9);
    assert.ok(Math.abs(short(t).y) < 1e-9);
  }
});

Deno.test("springEase rises from rest to exactly 1, overshooting only when underdamped", () => {
  for (const zeta of [0.3, 0.72, 1]) {
    const ease = springEase(zeta);
    assert.equal(ease(0), 0);
    assert.equal(ease(1), 1);
    assert.ok(ease(0.02) < 0.05, "starts slowly");
  }
  const samples = (zeta: number) => Array.from({ length: 99 }, (_, i) => springEase(zeta)((i + 1) / 100));
  assert.ok(Math.max(...samples(0.5)) > 1.01, "underdamped overshoots");
  assert.ok(Math.max(...samples(1)) <= 1, "critically damped does not");
  const critical = samples(1);
  assert.ok(critical.every((v, i) => i === 0 || v >= critical[i - 1]), "and rises monotonically");
});
