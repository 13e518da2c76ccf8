/**
 * The agent cursor's geometry: a classic arrow with its tip at a fixed point of a
 * small tile, an outline around it, and the click pulse ring centred on the tip.
 * Pure numbers, shared by the drawing and the shape mask.
 *
 * @module
 */
import type { Point } from "../../../../ports/geometry.ts";

/** The arrow outline in base units (tip at the origin), clockwise on screen. */
const ARROW: readonly Point[] = [
  { x: 0, y: 0 },
  { x: 11.6, y: 11.6 },
  { x: 6.8, y: 11.6 },
  { x: 9.6, y: 17.8 },
  { x: 7, y: 19 },
  { x: 4, y: 12.5 },
  { x: 0, y: 16 },
];
/** Base units to pixels at scale 1. */
const UNIT = 1.25;
/** Outline thickness in pixels. */
const OUTLINE_PX = 1.4;
/** Pulse ring: radius at pulse 0 and 1, and its thickness, in pixels at scale 1. */
const RING_MIN = 5;
const RING_MAX = 14;
const RING_WIDTH = 3;

/** Where things are inside the overlay tile, in tile pixels. */
export interface ArrowGeometry {
  /** Tile size. */
  width: number;
  height: number;
  /** The tip's position in the tile: the tile sits at (point - tip). */
  tip: Point;
  /** Outer polygon (outline colour). */
  outer: Point[];
  /** Inner polygon (fill colour). */
  inner: Point[];
  scale: number;
}

/** The tile and polygons for an arrow at `scale` (clamped to 0.5..3). */
export function arrowGeometry(scale: number): ArrowGeometry {
  const s = Math.min(3, Math.max(0.5, scale));
  const margin = Math.ceil(RING_MAX * s) + 2;
  const tip = { x: margin, y: margin };
  const outer = ARROW.map((p) => ({ x: tip.x + p.x * UNIT * s, y: tip.y + p.y * UNIT * s }));
  const inner = insetPolygon(outer, OUTLINE_PX * Math.max(1, s));
  const right = Math.max(...outer.map((p) => p.x)), bottom = Math.max(...outer.map((p) => p.y));
  return {
    width: Math.ceil(Math.max(right, tip.x + RING_MAX * s)) + 2,
    height: Math.ceil(Math.max(bottom, tip.y + RING_MAX * s)) + 2,
    tip,
    outer,
    inner,
    scale: s,
  };
}

/** The pulse ring's outer and inner radius at `pulse` (0..1), or null when there is no pulse. */
export function ringRadii(geometry: ArrowGeometry, pulse: number): { outer: number; inner: number } | null {
  if (!(pulse > 0)) return null;
  const p = Math.min(1, pulse);
  const outer = (RING_MIN + (RING_MAX - RING_MIN) * p) * geometry.scale;
  return { outer, inner: Math.max(0, outer - RING_WIDTH * geometry.scale) };
}

/**
 * Moves every edge of a simple polygon inward by `distance` and joins the moved
 * edges at their intersections (a miter inset).
 */
export function insetPolygon(points: readonly Point[], distance: number): Point[] {
  const n = points.length;
  let area = 0;
  for (let i = 0; i < n; i++) {
    const a = points[i], b = points[(i + 1) % n];
    area += a.x * b.y - b.x * a.y;
  }
  // The inward side of each edge depends on the winding.
  const side = area > 0 ? 1 : -1;
  const lines = points.map((a, i) => {
    const b = points[(i + 1) % n];
    const dx = b.x - a.x, dy = b.y - a.y, length = Math.hypot(dx, dy) || 1;
    const nx = (-dy / length) * side, ny = (dx / length) * side;
    return { x: a.x + nx * distance, y: a.y + ny * distance, dx, dy };
  });
  return lines.map((line, i) => {
    const previous = lines[(i - 1 + n) % n];
    const denominator = previous.dx * line.dy - previous.dy * line.dx;
    if (Math.abs(denominator) < 1e-9) return { x: line.x, y: line.y };
    const t = ((line.x - previous.x) * line.dy - (line.y - previous.y) * line.dx) / denominator;
    return { x: previous.x + previous.dx * t, y: previous.y + previous.dy * t };
  });
}
