/**
 * Reading an action's effect back through accessibility: the evidence behind
 * `effect: "confirmed"`.
 *
 * @module
 */
import type { AxRole, AxWatch } from "../ports/accessibility.ts";
import type { Point } from "../ports/geometry.ts";
import { PASSIVE_ROLES, TOGGLE_ROLES } from "../ports/ax_roles.ts";
import type { Snapshot, SnapshotElement } from "../kernel/snapshots.ts";
import type { ToolContext } from "../kernel/tool.ts";
import { contains } from "./pointing.ts";

const READBACK_MS = 600;
/** Re-reads without events: soon after the action, then every 15 ms. */
const POLL_SCHEDULE_MS = [1, 2, 4, 8];
const POLL_MS = 15;
/** Least time between two reads woken by events (a typed text changes once per key). */
const MIN_READ_GAP_MS = 2;

/**
 * A watch of the application owning `ref`, so a read-back wakes when the app reports a
 * change; null when the back end has none or it cannot start (the read-back then polls).
 * Start it before the action, so the action's event is not missed; close it after.
 */
export async function watchElement(ctx: ToolContext, ref: unknown): Promise<AxWatch | null> {
  try {
    return (await ctx.backend.accessibility.watch?.(ref)) ?? null;
  } catch {
    return null;
  }
}

/** Runs `body` with a watch of the app owning `ref` (see {@linkcode watchElement}), then closes it. */
export async function withWatch<T>(
  ctx: ToolContext,
  ref: unknown,
  body: (watch: AxWatch | null) => Promise<T>,
): Promise<T> {
  const watch = await watchElement(ctx, ref);
  try {
    return await body(watch);
  } finally {
    watch?.close();
  }
}

/**
 * Reads until `read` differs from `before` (or satisfies `done`), up to ~600 ms. With a
 * `watch` (see {@linkcode watchElement}) it re-reads when the application reports an event,
 * and every 15 ms in case none comes; without one it re-reads after 1, 2, 4 and 8 ms, then
 * every 15 ms. `reported` gives the value the application's own events stated (see
 * {@linkcode AxWatch.reportedStates}), or undefined: when it satisfies `done`, the wait ends
 * without asking the application again (busy redrawing right after the change, it answers
 * a read a few milliseconds late).
 */
export async function waitForChange<T>(
  read: () => Promise<T>,
  before: T,
  done: (value: T) => boolean = (value) => value !== before,
  timeoutMs = READBACK_MS,
  watch: AxWatch | null = null,
  reported: () => T | undefined = () => undefined,
): Promise<{ changed: boolean; after: T }> {
  const deadline = Date.now() + timeoutMs;
  let after = before;
  for (let round = 0;; round++) {
    const stated = reported();
    if (stated !== undefined && done(stated)) return { changed: true, after: stated };
    const readAt = performance.now();
    try {
      after = await read();
    } catch {
      // The element may be rebuilding; keep reading.
    }
    if (done(after)) return { changed: true, after };
    const left = deadline - Date.now();
    if (left <= 0) return { changed: false, after };
    if (watch) {
      await nextEvent(watch, Math.min(POLL_MS, left), readAt, MIN_READ_GAP_MS);
    } else {
      await sleep(Math.min(POLL_SCHEDULE_MS[round] ?? POLL_MS, left));
    }
  }
}

/**
 * Waits for the watched app's next event, or `timeoutMs`. An event that comes sooner than
 * `minGapMs` after `since` (the last look at the app) is answered at that gap, so a busy app's
 * burst of events does not turn into back-to-back reads. True when an event came.
 */
export async function nextEvent(
  watch: AxWatch,
  timeoutMs: number,
  since: number,
  minGapMs: number,
): Promise<boolean> {
  const woke = await watch.next(timeoutMs);
  const gap = minGapMs - (performance.now() - since);
  if (woke && gap > 0) await sleep(gap);
  return woke;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A text with every line end as one line feed: controls store line ends their own way (a
 * Windows edit control CR LF, a rich edit CR), so a read-back compares texts through this.
 */
export function lineFeeds(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * The checked state the app's events reported for a watched toggle, when they settle it: a
 * "checked" event turning on makes it checked. Anything else leaves it to a read: "checked"
 * turning off (a toggle is also checked while "pressed"), and "pressed" itself (Qt reports a
 * push button pressed while it is held down, which a click passes through).
 */
export function reportedToggle(watch: AxWatch | null): boolean | undefined {
  return watch?.reportedStates?.get("checked") === true ? true : undefined;
}

/** The checked state of an element when it is a toggle (by state or role), else null. */
export async function toggleState(ctx: ToolContext, ref: unknown, role?: AxRole): Promise<boolean | null> {
  try {
    const state = await ctx.backend.accessibility.state(ref);
    return state.checkable || (role !== undefined && TOGGLE_ROLES.has(role)) ? state.checked : null;
  } catch {
    return null;
  }
}

/**
 * The actionable element of a window's current snapshot under a screen point:
 * the smallest frame containing it, preferring non-passive roles. Null when the
 * window has no snapshot or nothing matches.
 */
export function elementAt(snapshot: Snapshot | undefined, point: Point): SnapshotElement | null {
  if (!snapshot) return null;
  let best: SnapshotElement | null = null;
  let bestArea = Infinity;
  for (const element of snapshot.elements) {
    if (!element.frame || !contains(element.frame, point)) continue;
    const area = element.frame.width * element.frame.height + (PASSIVE_ROLES.has(element.role) ? 1e9 : 0);
    if (area < bestArea) {
      best = element;
      bestArea = area;
    }
  }
  return best;
}
