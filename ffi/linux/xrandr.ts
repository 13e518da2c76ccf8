/**
 * libXrandr: monitor geometry.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXrandr symbols. */
export const XRANDR_SYMBOLS = {
  // XRRMonitorInfo *XRRGetMonitors(Display *dpy, Window window, Bool get_active, int *nmonitors)
  XRRGetMonitors: { parameters: ["pointer", "u64", "i32", "buffer"], result: "pointer" },
  // void XRRFreeMonitors(XRRMonitorInfo *monitors)
  XRRFreeMonitors: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXrandr, opened on first use. */
export const xrandr = openLibrary("Xrandr", ["libXrandr.so.2", "libXrandr.so"], XRANDR_SYMBOLS, "libxrandr2");

/**
 * XRRMonitorInfo layout: Atom name @0; Bool primary @8; Bool automatic @12; int noutput @16;
 * int x @20, y @24, width @28, height @32, mwidth @36, mheight @40; RROutput *outputs @48.
 */
export const XRRMonitorInfoLayout = {
  name: 0,
  primary: 8,
  x: 20,
  y: 24,
  width: 28,
  height: 32,
  mwidth: 36,
  mheight: 40,
  size: 56,
} as const;
