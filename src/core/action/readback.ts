/**
 * Reading an action's effect back through accessibility: the evidence behind
 * `effect: "confirmed"`.
 *
 * @module
 */
import type { AxRole, Point } from "../../platform/types.ts";
import { PASSIVE_ROLES, TOGGLE_ROLES } from "../ax_roles.ts";
import type { Snapshot, SnapshotElement } from "../snapshots.ts";
import type { ToolContext } from "../tool.ts";
import { contains } from "./pointing.ts";

const READBACK_MS = 600;
const POLL_MS = 15;

/** Polls `read` until it differs from `before` (or satisfies `done`), up to ~600 ms. */
export async function waitForChange<T>(
  read: () => Promise<T>,
  before: T,
  done: (value: T) => boolean = (value) => value !== before,
  timeoutMs = READBACK_MS,
): Promise<{ changed: boolean; after: T }> {
  const deadline = Date.now() + timeoutMs;
  let after = before;
  while (true) {
    try {
      after = await read();
    } catch {
      // The element may be rebuilding; keep polling.
    }
    if (done(after)) return { changed: true, after };
    if (Date.now() >= deadline) return { changed: false, after };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
