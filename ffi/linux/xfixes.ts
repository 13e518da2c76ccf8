/**
 * libXfixes: hiding the screen's cursors while a background pointer crosses windows of
 * other clients (see src/backends/linux/x11/input/sprite_guard.ts for why).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXfixes symbols (<X11/extensions/Xfixes.h>). */
export const XFIXES_SYMBOLS = {
  // Bool XFixesQueryExtension(Display *dpy, int *event_base_return, int *error_base_return)
  XFixesQueryExtension: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // Status XFixesQueryVersion(Display *dpy, int *major_version_return, int *minor_version_return)
  XFixesQueryVersion: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // void XFixesHideCursor(Display *dpy, Window win)
  XFixesHideCursor: { parameters: ["pointer", "u64"], result: "void" },
  // void XFixesShowCursor(Display *dpy, Window win)
  XFixesShowCursor: { parameters: ["pointer", "u64"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXfixes, opened on first use. */
export const xfixes = openLibrary("Xfixes", ["libXfixes.so.3", "libXfixes.so"], XFIXES_SYMBOLS);
