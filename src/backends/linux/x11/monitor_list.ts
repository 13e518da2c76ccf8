/**
 * The X11 screen's display list from RandR's monitors, however they were read (Xlib's
 * XRRGetMonitors in `xlib_screen.ts`, GetMonitors over the wire in `wire_screen.ts`).
 *
 * @module
 */
import type { Rect } from "../../../ports/geometry.ts";
import type { DisplayInfo } from "../../../ports/screen.ts";

/** One RandR monitor, in the server's order. */
export interface Monitor {
  /** The monitor's name (its atom's); null when it has none. */
  name: string | null;
  primary: boolean;
  bounds: Rect;
}

/**
 * The displays: the monitors with ids in the server's order, the primary first (the first
 * monitor when none is primary); the whole root window, named after the display, when RandR
 * lists none or is missing (`monitors` null).
 */
export function displayList(
  displayName: string,
  screen: { width: number; height: number },
  monitors: readonly Monitor[] | null,
): DisplayInfo[] {
  const display = (id: number, name: string, primary: boolean, bounds: Rect): DisplayInfo => ({
    id: String(id),
    name,
    primary,
    bounds,
    nativeWidth: bounds.width,
    nativeHeight: bounds.height,
    scaleFactor: 1,
    refreshRateHz: 0,
  });
  if (!monitors?.length) {
    return [display(0, displayName, true, { x: 0, y: 0, width: screen.width, height: screen.height })];
  }
  const list = monitors.map((m, i) => display(i, m.name ?? `monitor-${i}`, m.primary, m.bounds));
  if (!list.some((d) => d.primary)) list[0].primary = true;
  return list.sort((a, b) => Number(b.primary) - Number(a.primary));
}
