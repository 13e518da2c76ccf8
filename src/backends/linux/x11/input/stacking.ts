/**
 * Whether real pointer input at a screen point would reach a window: the
 * server's own answer for the topmost child of the root at that point.
 *
 * @module
 */
import { x11 } from "../../../../../ffi/linux/x11.ts";
import type { Point } from "../../../../ports/geometry.ts";
import type { XConnection } from "../connection.ts";

/** The child of the root (a WM frame or an override-redirect window) containing a window. */
export function topLevelAncestor(conn: XConnection, window: bigint): bigint | null {
  let current = window;
  for (let depth = 0; depth < 32; depth++) {
    const parent = conn.parentOf(current);
    if (parent === null) return null;
    if (parent === conn.root || parent === 0n) return current;
    current = parent;
  }
  return null;
}

/** The topmost child of the root at a screen point, or null over bare root. */
export function rootChildAt(conn: XConnection, point: Point): bigint | null {
  const dx = new Int32Array(1), dy = new Int32Array(1), child = new BigUint64Array(1);
  conn.trap(() =>
    x11.symbols.XTranslateCoordinates(
      conn.unsafeDisplay(),
      conn.root,
      conn.root,
      Math.round(point.x),
      Math.round(point.y),
      dx,
      dy,
      child,
    )
  );
  return child[0] === 0n ? null : child[0];
}

/** True when the window (a client window) is what real pointer input at `point` reaches. */
export function windowOnTopAt(conn: XConnection, windowId: number, point: Point): boolean {
  const frame = topLevelAncestor(conn, BigInt(windowId));
  return frame !== null && rootChildAt(conn, point) === frame;
}

const PARK_GRID = 48;

/** A point over bare root (no window there), scanning from the bottom-right corner; null if none. */
export function bareRootPoint(conn: XConnection): Point | null {
  const { width, height } = conn.screenSize();
  for (let y = height - 1; y >= 0; y -= PARK_GRID) {
    for (let x = width - 1; x >= 0; x -= PARK_GRID) {
      if (rootChildAt(conn, { x, y }) === null) return { x, y };
    }
  }
  return null;
}
