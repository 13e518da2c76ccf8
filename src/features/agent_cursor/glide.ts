/**
 * The path of a glide: a cubic Bézier from the cursor to the target, bowed
 * sideways by `arc_size` (peaking where `arc_flow` says), followed in time by a
 * damped spring that starts at rest and settles exactly on the target.
 *
 * @module
 */
import type { Point } from "../../ports/geometry.ts";
import type { CursorMotion } from "./motion.ts";

/** Stiffness of the arrival spring: it has settled well before t = 1 at this value. */
const OMEGA = 9;

/** Position along a glide at time fraction `t` (0..1); exactly `to` from t = 1 on. */
export type GlidePath = (t: number) => Point;

/** The glide from `from` to `to` under `motion`. */
export function glidePath(from: Point, to: Point, motion: CursorMotion): GlidePath {
  const dx = to.x - from.x, dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  if (length === 0) return () => ({ ...to });
  // The bow goes to the left of the direction of travel; short moves go straight.
  const bow = length < motion.turn_radius ? 0 : motion.arc_size * length * 0.5;
  const nx = -dy / length, ny = dx / length;
  const c1 = {
    x: from.x + dx * motion.start_handle + nx * bow * (1 - motion.arc_flow),
    y: from.y + dy * motion.start_handle + ny * bow * (1 - motion.arc_flow),
  };
  const c2 = {
    x: to.x - dx * motion.end_handle + nx * bow * (1 + motion.arc_flow),
    y: to.y - dy * motion.end_handle + ny * bow * (1 + motion.arc_flow),
  };
  const ease = springEase(motion.spring);
  return (t: number) => {
    if (t >= 1) return { ...to };
    const s = ease(Math.max(0, t));
    return bezier(from, c1, c2, to, s);
  };
}

/**
 * A spring from rest at 0 to 1 with damping ratio `zeta` (1: no overshoot), scaled so
 * it is exactly 1 at t = 1.
 */
export function springEase(zeta: number): (t: number) => number {
  const z = Math.min(1, Math.max(0.05, zeta));
  let raw: (t: number) => number;
  if (z >= 0.999) {
    raw = (t) => 1 - Math.exp(-OMEGA * t) * (1 + OMEGA * t);
  } else {
    const wd = OMEGA * Math.sqrt(1 - z * z);
    raw = (t) => 1 - Math.exp(-z * OMEGA * t) * (Math.cos(wd * t) + (z * OMEGA / wd) * Math.sin(wd * t));
  }
  const end = raw(1);
  return (t) => (t >= 1 ? 1 : raw(t) / end);
}

function bezier(p0: Point, p1: Point, p2: Point, p3: Point, s: number): Point {
  const u = 1 - s;
  const a = u * u * u, b = 3 * u * u * s, c = 3 * u * s * s, d = s * s * s;
  return {
    x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
    y: a * p0.y + b * p1.y + c * p2.y + d * p3.y,
  };
}
