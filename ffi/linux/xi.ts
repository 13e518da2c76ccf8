/**
 * libXi: XInput2 device hierarchy (a second master pointer and keyboard for
 * background input) and the XInput 1 device handles XTest needs.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libXi symbols. */
export const XI_SYMBOLS = {
  // Status XIQueryVersion(Display *dpy, int *major_version_inout, int *minor_version_inout)
  XIQueryVersion: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // Status XIChangeHierarchy(Display *dpy, XIAnyHierarchyChangeInfo *changes, int num_changes)
  XIChangeHierarchy: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  // XIDeviceInfo *XIQueryDevice(Display *dpy, int deviceid, int *ndevices_return)
  XIQueryDevice: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  // void XIFreeDeviceInfo(XIDeviceInfo *info)
  XIFreeDeviceInfo: { parameters: ["pointer"], result: "void" },
  // Status XISetFocus(Display *dpy, int deviceid, Window focus, Time time)
  XISetFocus: { parameters: ["pointer", "i32", "u64", "u64"], result: "i32" },
  // Status XIGetFocus(Display *dpy, int deviceid, Window *focus_return)
  XIGetFocus: { parameters: ["pointer", "i32", "buffer"], result: "i32" },
  // Bool XIWarpPointer(Display *dpy, int deviceid, Window src_win, Window dst_win, double src_x, double src_y,
  //   unsigned int src_width, unsigned int src_height, double dst_x, double dst_y)
  XIWarpPointer: {
    parameters: ["pointer", "i32", "u64", "u64", "f64", "f64", "u32", "u32", "f64", "f64"],
    result: "i32",
  },
  // Bool XIQueryPointer(Display*, int deviceid, Window win, Window *root, Window *child, double *root_x,
  //   double *root_y, double *win_x, double *win_y, XIButtonState *buttons, XIModifierState *mods,
  //   XIGroupState *group)
  XIQueryPointer: {
    parameters: [
      "pointer",
      "i32",
      "u64",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
    ],
    result: "i32",
  },
  // Status XIDefineCursor(Display *dpy, int deviceid, Window win, Cursor cursor)
  XIDefineCursor: { parameters: ["pointer", "i32", "u64", "u64"], result: "i32" },
  // XDevice *XOpenDevice(Display *display, XID device_id)
  XOpenDevice: { parameters: ["pointer", "u64"], result: "pointer" },
  // int XCloseDevice(Display *display, XDevice *device)
  XCloseDevice: { parameters: ["pointer", "pointer"], result: "i32" },
  // XDeviceState *XQueryDeviceState(Display *display, XDevice *device)
  XQueryDeviceState: { parameters: ["pointer", "pointer"], result: "pointer" },
  // void XFreeDeviceState(XDeviceState *list)
  XFreeDeviceState: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXi, opened on first use. */
export const xi = openLibrary("Xi", ["libXi.so.6", "libXi.so"], XI_SYMBOLS, "libxi6");

/** Constants from <X11/extensions/XI2.h>. */
export const XI = {
  AllDevices: 0,
  AllMasterDevices: 1,
  AddMaster: 1,
  RemoveMaster: 2,
  AttachToMaster: 1,
  Floating: 2,
  MasterPointer: 1,
  MasterKeyboard: 2,
  SlavePointer: 3,
  SlaveKeyboard: 4,
  FloatingSlave: 5,
} as const;

/** XIAddMasterInfo: int type @0; char *name @8; Bool send_core @16; Bool enable @20. */
export const XIAddMasterInfoLayout = { type: 0, name: 8, send_core: 16, enable: 20, size: 24 } as const;
/** XIRemoveMasterInfo: int type @0; int deviceid @4; int return_mode @8; int return_pointer @12; int return_keyboard @16. */
export const XIRemoveMasterInfoLayout = { type: 0, deviceid: 4, return_mode: 8, size: 20 } as const;
/** XIDeviceInfo: int deviceid @0; char *name @8; int use @16; int attachment @20; Bool enabled @24. */
export const XIDeviceInfoLayout = {
  deviceid: 0,
  name: 8,
  use: 16,
  attachment: 20,
  enabled: 24,
  size: 40,
} as const;

/** XDeviceState (XInput 1): XID device_id @0; int num_classes @8; XInputClass *data @16. */
export const XDeviceStateLayout = { num_classes: 8, data: 16 } as const;
/**
 * The classes XQueryDeviceState returns, one after another, each `length` bytes: unsigned char
 * class @0; unsigned char length @1; then XKeyState / XButtonState: short num_keys (num_buttons) @2;
 * char bits[32] @4 (bit n of the array is key or button n).
 */
export const XInputClassLayout = { class: 0, length: 1, count: 2, bits: 4 } as const;
/** XInput 1 class ids (<X11/extensions/XI.h>). */
export const XInputClass = { KeyClass: 0, ButtonClass: 1, ValuatorClass: 2 } as const;
