/**
 * The Xlib half of the X11 screen (screen.ts): the monitor list through libXrandr's
 * XRRGetMonitors and the pointer through XQueryPointer. Loaded at the first call that uses
 * Xlib: a one-shot call answered by the wire client (wire.ts) never loads libX11's bindings.
 *
 * @module
 */
import { X, x11 } from "../../../../ffi/linux/x11.ts";
import { xrandr, XRRMonitorInfoLayout } from "../../../../ffi/linux/xrandr.ts";
import type { CursorPosition, DisplayInfo } from "../../../ports/screen.ts";
import type { XConnection } from "./connection.ts";
import { displayList, type Monitor } from "./monitor_list.ts";

/** Monitors from RandR, primary first; the whole root window when RandR reports none. */
export function xlibDisplays(conn: XConnection): DisplayInfo[] {
  const size = conn.screenSize();
  if (!xrandr.available()) return displayList(conn.name, size, null);
  const count = new Int32Array(1);
  const monitors = xrandr.symbols.XRRGetMonitors(conn.unsafeDisplay(), conn.root, X.True, count);
  // The size above is Xlib's cached copy: if the server died, this first round trip is what
  // notices, and the answer must be display_unavailable, not the stale size.
  if (!conn.alive) {
    if (monitors) xrandr.symbols.XRRFreeMonitors(monitors);
    conn.unsafeDisplay();
  }
  if (!monitors || count[0] === 0) {
    if (monitors) xrandr.symbols.XRRFreeMonitors(monitors);
    return displayList(conn.name, size, null);
  }
  const L = XRRMonitorInfoLayout;
  const view = new Deno.UnsafePointerView(monitors);
  const list: Monitor[] = [];
  for (let i = 0; i < count[0]; i++) {
    const base = i * L.size;
    const nameAtom = view.getBigUint64(base + L.name);
    list.push({
      name: nameAtom ? conn.atomName(nameAtom) : null,
      primary: view.getInt32(base + L.primary) !== 0,
      bounds: {
        x: view.getInt32(base + L.x),
        y: view.getInt32(base + L.y),
        width: view.getInt32(base + L.width),
        height: view.getInt32(base + L.height),
      },
    });
  }
  xrandr.symbols.XRRFreeMonitors(monitors);
  return displayList(conn.name, size, list);
}

/** The core pointer position. */
export function xlibPointer(conn: XConnection): CursorPosition {
  const root = new BigUint64Array(1), child = new BigUint64Array(1);
  const rx = new Int32Array(1), ry = new Int32Array(1), wx = new Int32Array(1), wy = new Int32Array(1);
  const mask = new Uint32Array(1);
  x11.symbols.XQueryPointer(conn.unsafeDisplay(), conn.root, root, child, rx, ry, wx, wy, mask);
  // A lost server leaves the outputs at zero: report it instead of (0, 0).
  if (!conn.alive) conn.unsafeDisplay();
  return { x: rx[0], y: ry[0], source: "x11" };
}

/** True when a window's map state (XWindowAttributes.map_state) is IsViewable. */
export function isViewable(mapState: number): boolean {
  return mapState === X.IsViewable;
}
