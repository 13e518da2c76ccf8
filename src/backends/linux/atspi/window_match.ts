/**
 * Mapping an X11 window to one of an application's top-level accessibles by geometry.
 * AT-SPI has one tree per process, so this decides which subtree is "the window".
 *
 * @module
 */
import type { Rect } from "../../../ports/geometry.ts";

/** One top-level accessible of the application. */
export interface TopLevelCandidate {
  /** Screen extents, or null when unknown. */
  rect: Rect | null;
  showing: boolean;
}

/** Largest L1 distance of (x, y, width, height) accepted as a match (matches cua-driver). */
export const MAX_MATCH_DISTANCE = 160;
/** How much closer the best candidate must be than the runner-up (matches cua-driver). */
export const MIN_MATCH_MARGIN = 24;

/**
 * L1 distance of (x, y, width, height). A candidate at about (0, 0) is also compared
 * as if it sat at the window's origin: GTK4 and Chromium report window-relative
 * "screen" coordinates.
 */
export function rectDistance(a: Rect, window: Rect): number {
  const size = Math.abs(a.width - window.width) + Math.abs(a.height - window.height);
  const plain = Math.abs(a.x - window.x) + Math.abs(a.y - window.y) + size;
  if (Math.abs(a.x) <= 2 && Math.abs(a.y) <= 2) return Math.min(plain, Math.abs(a.x) + Math.abs(a.y) + size);
  return plain;
}

/**
 * Picks the top level that is the window with client bounds `window`.
 *
 * A single candidate maps trivially. Otherwise the closest by {@linkcode rectDistance}
 * wins when it is within {@linkcode MAX_MATCH_DISTANCE} and beats the runner-up by
 * {@linkcode MIN_MATCH_MARGIN}; failing that, the only showing candidate, if there is one.
 *
 * @returns The index into `candidates`, or null when no candidate can be told apart.
 */
export function matchTopLevel(candidates: readonly TopLevelCandidate[], window: Rect | null): number | null {
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return 0;
  if (window !== null) {
    let best = -1;
    let bestDistance = Infinity;
    let runnerUp = Infinity;
    candidates.forEach((candidate, i) => {
      if (candidate.rect === null) return;
      const d = rectDistance(candidate.rect, window);
      if (d < bestDistance) {
        runnerUp = bestDistance;
        bestDistance = d;
        best = i;
      } else if (d < runnerUp) runnerUp = d;
    });
    if (best >= 0 && bestDistance <= MAX_MATCH_DISTANCE && runnerUp - bestDistance >= MIN_MATCH_MARGIN) {
      return best;
    }
  }
  const showing = candidates.flatMap((c, i) => c.showing ? [i] : []);
  return showing.length === 1 ? showing[0] : null;
}

/** Widest client-side decoration margin (GTK4's solid-csd border) taken for a margin, per side. */
const MAX_CSD_MARGIN = 32;

/**
 * The offset to add to every "screen" frame of a window whose top level reports
 * window-relative coordinates (origin about (0, 0)): the window's origin, plus the
 * client-side decoration margin when the top level is smaller than the X window
 * (GTK4 draws its surface inset by its border). A top level at the origin that
 * contains the client area is screen-absolute (a maximized window whose frame,
 * decorations included, starts at (0, 0)), and gets no offset.
 */
export function frameOffset(topLevel: Rect | null, window: Rect | null): { dx: number; dy: number } {
  if (!topLevel || !window) return { dx: 0, dy: 0 };
  const atOrigin = Math.abs(topLevel.x) <= 2 && Math.abs(topLevel.y) <= 2;
  if (!atOrigin) return { dx: 0, dy: 0 };
  const containsClient = topLevel.x <= window.x && topLevel.y <= window.y &&
    topLevel.x + topLevel.width >= window.x + window.width &&
    topLevel.y + topLevel.height >= window.y + window.height;
  if (containsClient) return { dx: 0, dy: 0 };
  const margin = (outer: number, inner: number) => {
    const m = Math.round((outer - inner) / 2);
    return m > 0 && m <= MAX_CSD_MARGIN ? m : 0;
  };
  return {
    dx: window.x + margin(window.width, topLevel.width) - topLevel.x,
    dy: window.y + margin(window.height, topLevel.height) - topLevel.y,
  };
}
