/**
 * Reading what input may disturb: the active window, the core input focus,
 * the core pointer and the stacking order.
 *
 * @module
 */
import { x11 } from "../../../../../ffi/linux/x11.ts";
import type { Point } from "../../../../ports/geometry.ts";
import type { DesktopObservation } from "../../../../ports/input.ts";
import type { XConnection } from "../connection.ts";
import { getCardinal, getLongs } from "../properties.ts";

/** The client window holding the core input focus, or null (walks up from a focus child). */
export function focusedClient(conn: XConnection, clients: readonly bigint[]): number | null {
  const focus = new BigUint64Array(1), revert = new Int32Array(1);
  x11.symbols.XGetInputFocus(conn.unsafeDisplay(), focus, revert);
  let window = focus[0];
  const set = new Set(clients);
  for (let depth = 0; window > 1n && depth < 32; depth++) {
    if (set.has(window)) return Number(window);
    const parent = conn.parentOf(window);
    if (parent === null || parent === 0n || parent === conn.root) break;
    window = parent;
  }
  return null;
}

/** The raw core focus window and its revert mode. */
export function coreFocus(conn: XConnection): { window: bigint; revertTo: number } {
  const focus = new BigUint64Array(1), revert = new Int32Array(1);
  x11.symbols.XGetInputFocus(conn.unsafeDisplay(), focus, revert);
  return { window: focus[0], revertTo: revert[0] };
}

/** The core pointer position. */
export function corePointer(conn: XConnection): Point {
  const root = new BigUint64Array(1), child = new BigUint64Array(1);
  const rx = new Int32Array(1), ry = new Int32Array(1), wx = new Int32Array(1), wy = new Int32Array(1);
  const mask = new Uint32Array(1);
  x11.symbols.XQueryPointer(conn.unsafeDisplay(), conn.root, root, child, rx, ry, wx, wy, mask);
  return { x: rx[0], y: ry[0] };
}

/** One reading of everything a background action must leave alone. */
export function observeDesktop(conn: XConnection): DesktopObservation {
  const stacking = getLongs(conn, conn.root, "_NET_CLIENT_LIST_STACKING") ?? [];
  const active = getCardinal(conn, conn.root, "_NET_ACTIVE_WINDOW");
  return {
    activeWindow: active ? Number(active) : null,
    focusWindow: focusedClient(conn, stacking),
    pointer: corePointer(conn),
    stacking: stacking.map(Number),
  };
}
