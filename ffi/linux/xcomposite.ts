/**
 * libXcomposite: off-screen storage of window contents, so a covered window
 * can still be captured.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXcomposite symbols. */
export const XCOMPOSITE_SYMBOLS = {
  // Bool XCompositeQueryExtension(Display *dpy, int *event_base_return, int *error_base_return)
  XCompositeQueryExtension: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // void XCompositeRedirectSubwindows(Display *dpy, Window window, int update)
  XCompositeRedirectSubwindows: { parameters: ["pointer", "u64", "i32"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXcomposite, opened on first use. */
export const xcomposite = openLibrary(
  "Xcomposite",
  ["libXcomposite.so.1", "libXcomposite.so"],
  XCOMPOSITE_SYMBOLS,
  "libxcomposite1",
);

/** CompositeRedirectAutomatic: the server keeps painting the screen itself. */
export const CompositeRedirectAutomatic = 0;
