import assert from "node:assert/strict";
import type { Point } from "../../../../ports/geometry.ts";
import { arrowGeometry, insetPolygon, ringRadii } from "./arrow.ts";

/** Even-odd point-in-polygon. */
function inside(polygon: readonly Point[], p: Point): boolean {
  let hit = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i], b = polygon[j];
    if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) hit = !hit;
  }
  return hit;
}

Deno.test("arrowGeometry keeps the arrow and the widest pulse ring inside the tile", () => {
  for (const scale of [0.5, 1, 1.25, 3]) {
    const g = arrowGeometry(scale);
    for (const p of g.outer) assert.ok(p.x >= 0 && p.y >= 0 && p.x <= g.width && p.y <= g.height);
    const ring = ringRadii(g, 1)!;
    assert.ok(g.tip.x - ring.outer >= 0 && g.tip.y - ring.outer >= 0);
    assert.ok(g.tip.x + ring.outer <= g.width && g.tip.y + ring.outer <= g.height);
    assert.deepEqual(g.outer[0], g.tip, "the first vertex is the tip");
  }
  assert.equal(ringRadii(arrowGeometry(1), 0), null, "no pulse, no ring");
});

Deno.test("insetPolygon moves every vertex inside the arrow, whichever way it winds", () => {
  const g = arrowGeometry(1);
  for (const polygon of [g.outer, [...g.outer].reverse()]) {
    const inner = insetPolygon(polygon, 1.4);
    assert.equal(inner.length, polygon.length);
    for (const p of inner) assert.ok(inside(polygon, p), `${JSON.stringify(p)} inside`);
  }
  // The tests' probe point (tip + (3, 8)) is in the body, inside the outline.
  assert.ok(inside(g.inner, { x: g.tip.x + 3, y: g.tip.y + 8 }));
});
