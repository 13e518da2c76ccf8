/**
 * libXext: the MIT-SHM extension, for zero-copy screen capture.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXext symbols (MIT-SHM). */
export const XEXT_SYMBOLS = {
  // Bool XShmQueryExtension(Display *display)
  XShmQueryExtension: { parameters: ["pointer"], result: "i32" },
  // Bool XShmQueryVersion(Display*, int *major, int *minor, Bool *pixmaps)
  XShmQueryVersion: { parameters: ["pointer", "buffer", "buffer", "buffer"], result: "i32" },
  // XImage *XShmCreateImage(Display*, Visual *visual, unsigned int depth, int format, char *data,
  //   XShmSegmentInfo *shminfo, unsigned int width, unsigned int height)
  XShmCreateImage: {
    parameters: ["pointer", "pointer", "u32", "i32", "pointer", "pointer", "u32", "u32"],
    result: "pointer",
  },
  // Bool XShmAttach(Display*, XShmSegmentInfo *shminfo)
  XShmAttach: { parameters: ["pointer", "pointer"], result: "i32" },
  // Bool XShmDetach(Display*, XShmSegmentInfo *shminfo)
  XShmDetach: { parameters: ["pointer", "pointer"], result: "i32" },
  // Bool XShmGetImage(Display*, Drawable d, XImage *image, int x, int y, unsigned long plane_mask)
  XShmGetImage: { parameters: ["pointer", "u64", "pointer", "i32", "i32", "u64"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXext, opened on first use. */
export const xext = openLibrary("Xext", ["libXext.so.6", "libXext.so"], XEXT_SYMBOLS, "libxext6");

/** XShmSegmentInfo: { ShmSeg shmseg @0 (u64); int shmid @8; char *shmaddr @16; Bool readOnly @24 } */
export const XShmSegmentInfoLayout = { shmseg: 0, shmid: 8, shmaddr: 16, readOnly: 24, size: 32 } as const;
