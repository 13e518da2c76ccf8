/**
 * libXtst: XTEST synthetic input through the server's own input path.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXtst symbols. */
export const XTST_SYMBOLS = {
  // Bool XTestQueryExtension(Display*, int *event_base, int *error_base, int *major, int *minor)
  XTestQueryExtension: { parameters: ["pointer", "buffer", "buffer", "buffer", "buffer"], result: "i32" },
  // int XTestFakeMotionEvent(Display*, int screen_number, int x, int y, unsigned long delay)
  XTestFakeMotionEvent: { parameters: ["pointer", "i32", "i32", "i32", "u64"], result: "i32" },
  // int XTestFakeButtonEvent(Display*, unsigned int button, Bool is_press, unsigned long delay)
  XTestFakeButtonEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  // int XTestFakeKeyEvent(Display*, unsigned int keycode, Bool is_press, unsigned long delay)
  XTestFakeKeyEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  // int XTestFakeDeviceKeyEvent(Display*, XDevice *dev, unsigned int keycode, Bool is_press, int *axes,
  //   int n_axes, unsigned long delay)
  XTestFakeDeviceKeyEvent: {
    parameters: ["pointer", "pointer", "u32", "i32", "buffer", "i32", "u64"],
    result: "i32",
  },
  // int XTestFakeDeviceButtonEvent(Display*, XDevice *dev, unsigned int button, Bool is_press, int *axes,
  //   int n_axes, unsigned long delay)
  XTestFakeDeviceButtonEvent: {
    parameters: ["pointer", "pointer", "u32", "i32", "buffer", "i32", "u64"],
    result: "i32",
  },
  // int XTestFakeDeviceMotionEvent(Display*, XDevice *dev, Bool is_relative, int first_axis, int *axes,
  //   int n_axes, unsigned long delay)
  XTestFakeDeviceMotionEvent: {
    parameters: ["pointer", "pointer", "i32", "i32", "buffer", "i32", "u64"],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXtst, opened on first use. */
export const xtst = openLibrary("Xtst", ["libXtst.so.6", "libXtst.so"], XTST_SYMBOLS, "libxtst6");

/** XDevice (<X11/extensions/XInput.h>), as passed to the XTestFakeDevice* calls: XID device_id @0. */
export const XDeviceLayout = { device_id: 0 } as const;
