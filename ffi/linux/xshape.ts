/**
 * libXext: the X Nonrectangular Window Shape Extension (SHAPE), for the agent-cursor
 * overlay's outline (bounding shape) and its click-through (an empty input shape).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXext symbols (SHAPE, <X11/extensions/shape.h>). */
export const XSHAPE_SYMBOLS = {
  // Bool XShapeQueryExtension(Display *display, int *event_base, int *error_base)
  XShapeQueryExtension: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // Status XShapeQueryVersion(Display *display, int *major_version, int *minor_version)
  XShapeQueryVersion: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // void XShapeCombineRectangles(Display *display, Window dest, int dest_kind, int x_off, int y_off,
  //   XRectangle *rectangles, int n_rects, int op, int ordering)
  XShapeCombineRectangles: {
    parameters: ["pointer", "u64", "i32", "i32", "i32", "buffer", "i32", "i32", "i32"],
    result: "void",
  },
  // void XShapeCombineMask(Display *display, Window dest, int dest_kind, int x_off, int y_off,
  //   Pixmap src, int op)
  XShapeCombineMask: { parameters: ["pointer", "u64", "i32", "i32", "i32", "u64", "i32"], result: "void" },
  // XRectangle *XShapeGetRectangles(Display *display, Window window, int kind, int *count, int *ordering)
  XShapeGetRectangles: { parameters: ["pointer", "u64", "i32", "buffer", "buffer"], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXext (the SHAPE part), opened on first use. */
export const xshape = openLibrary("Xext", ["libXext.so.6", "libXext.so"], XSHAPE_SYMBOLS, "libxext6");

/** Constants from <X11/extensions/shapeconst.h> (SHAPE 1.1). */
export const Shape = {
  // dest_kind
  Bounding: 0,
  Clip: 1,
  /** SHAPE 1.1: the region that receives pointer input. */
  Input: 2,
  // op
  Set: 0,
  Union: 1,
  Intersect: 2,
  Subtract: 3,
  Invert: 4,
  // ordering
  Unsorted: 0,
} as const;

/** XRectangle: { short x @0; short y @2; unsigned short width @4; unsigned short height @6 } */
export const XRectangleLayout = { x: 0, y: 2, width: 4, height: 6, size: 8 } as const;
