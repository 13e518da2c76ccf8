/**
 * Pointer paths: interpolating a polyline into evenly spaced points, and moving
 * one pointer (or several at once) along paths on a clock.
 *
 * @module
 */
import type { Point } from "../ports/geometry.ts";
import type { MouseButton, RawPointer } from "../ports/input.ts";
import { abortedPartway, pause } from "../kernel/call_abort.ts";

/**
 * `steps + 1` points along a polyline, evenly spaced by arc length, starting at
 * its first vertex and ending at its last (rounded to whole screen points).
 */
export function interpolate(vertices: readonly Point[], steps: number): Point[] {
  steps = Math.max(1, Math.floor(steps));
  const round = (p: Point) => ({ x: Math.round(p.x), y: Math.round(p.y) });
  if (vertices.length < 2) {
    return vertices.length ? Array.from({ length: steps + 1 }, () => round(vertices[0])) : [];
  }
  const lengths = [0];
  for (let i = 1; i < vertices.length; i++) {
    lengths.push(
      lengths[i - 1] + Math.hypot(vertices[i].x - vertices[i - 1].x, vertices[i].y - vertices[i - 1].y),
    );
  }
  const total = lengths.at(-1)!;
  const out: Point[] = [];
  let segment = 1;
  for (let k = 0; k <= steps; k++) {
    const distance = total * k / steps;
    while (segment < vertices.length - 1 && lengths[segment] < distance) segment++;
    const a = vertices[segment - 1], b = vertices[segment];
    const span = lengths[segment] - lengths[segment - 1];
    const t = span > 0 ? Math.min(1, Math.max(0, (distance - lengths[segment - 1]) / span)) : 1;
    out.push(round({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }));
  }
  out[0] = round(vertices[0]);
  out[steps] = round(vertices.at(-1)!);
  return out;
}

/** One pointer's part of a timed gesture. */
export interface Track {
  pointer: RawPointer;
  /** Points to pass through after the first (the pointer is already at `path[0]`). */
  path: readonly Point[];
  durationMs: number;
}

/**
 * Moves every track's pointer along its path at once, each on its own clock
 * (point k of a track is reached at `durationMs * k / (path.length - 1)`).
 *
 * @throws {DriverError} `aborted` (with `delivered_count`, the moves sent, and
 *   `planned_count`) as soon as `signal` aborts: no move is sent after it.
 */
export async function moveTracks(tracks: readonly Track[], signal?: AbortSignal): Promise<void> {
  const events: { at: number; track: Track; point: Point }[] = [];
  for (const track of tracks) {
    const steps = track.path.length - 1;
    for (let k = 1; k <= steps; k++) {
      events.push({ at: track.durationMs * k / steps, track, point: track.path[k] });
    }
  }
  events.sort((a, b) => a.at - b.at);
  const start = performance.now();
  let sent = 0;
  for (const event of events) {
    const wait = start + event.at - performance.now();
    if (wait >= 1) await pause(wait, signal);
    if (signal?.aborted) {
      throw abortedPartway(signal, "The pointer gesture", {
        delivered_count: sent,
        planned_count: events.length,
      });
    }
    await event.track.pointer.move(event.point);
    sent++;
  }
  for (const track of tracks) await track.pointer.sync();
}

/**
 * Press, move along `path`, release: one drag with one pointer. The button is
 * released even when a move fails or `signal` aborts the drag part-way.
 */
export async function dragAlong(
  pointer: RawPointer,
  path: readonly Point[],
  button: MouseButton,
  durationMs: number,
  signal?: AbortSignal,
): Promise<void> {
  await pointer.move(path[0]);
  await pointer.button(button, true);
  try {
    await pointer.sync();
    await moveTracks([{ pointer, path, durationMs }], signal);
  } finally {
    await pointer.button(button, false);
    await pointer.sync();
  }
}
