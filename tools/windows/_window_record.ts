/**
 * The list_windows record shape, shared by list_windows and launch_app.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import type { WindowInfo } from "../../src/ports/windows.ts";

/** Schema of one window record. */
export const WindowRecord = z.object({
  window_id: z.number(),
  pid: z.number().nullable(),
  app_name: z.string(),
  title: z.string().describe('"" for an untitled window'),
  transient_for: z.number().nullable().describe(
    "window_id of the window this one is a dialog of; null for a window of its own or when unknown",
  ),
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  is_on_screen: z.boolean(),
  z_index: z.number().int().nullable().describe(
    "Higher is nearer the front; null when unknown (never infer)",
  ),
  window_system: z.enum(["x11", "wayland"]).optional().describe(
    "In a Wayland session: wayland for a native window, x11 for an XWayland one",
  ),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});

/** Converts a back-end window into the record. */
export function windowRecord(w: WindowInfo): z.infer<typeof WindowRecord> {
  return {
    window_id: w.windowId,
    pid: w.pid,
    app_name: w.appName,
    title: w.title,
    transient_for: w.transientFor ?? null,
    bounds: { ...w.bounds },
    is_on_screen: w.isOnScreen,
    z_index: w.zIndex,
    ...(w.windowSystem ? { window_system: w.windowSystem } : {}),
    ...w.bounds,
  };
}

/** One text line per window, as the reference prints them. */
export function windowLine(w: WindowInfo): string {
  const b = w.bounds;
  return `[window_id=${w.windowId}] pid=${w.pid ?? "?"} ${
    w.title === "" ? '"" (untitled)' : JSON.stringify(w.title)
  } ${b.width}x${b.height}+${b.x}+${b.y}` +
    (w.transientFor ? ` dialog of window_id=${w.transientFor}` : "") +
    (w.isOnScreen ? "" : " (hidden)");
}
