/**
 * libX11 symbols and struct layouts (x86_64 and aarch64 LP64).
 *
 * Sections follow the Xlib manual's chapters. Struct offsets are listed next to
 * each layout so they can be checked against <X11/Xlib.h>.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libX11 symbols used by the driver. */
export const X11_SYMBOLS = {
  // --- Display functions (Xlib ch. 2)
  // Status XInitThreads(void)
  XInitThreads: { parameters: [], result: "i32" },
  // Display *XOpenDisplay(char *display_name)
  XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
  // int XCloseDisplay(Display *display)
  XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  // int XDefaultScreen(Display *display)
  XDefaultScreen: { parameters: ["pointer"], result: "i32" },
  // Window XRootWindow(Display *display, int screen_number)
  XRootWindow: { parameters: ["pointer", "i32"], result: "u64" },
  // int XDisplayWidth(Display *display, int screen_number)
  XDisplayWidth: { parameters: ["pointer", "i32"], result: "i32" },
  // int XDisplayHeight(Display *display, int screen_number)
  XDisplayHeight: { parameters: ["pointer", "i32"], result: "i32" },
  // Visual *XDefaultVisual(Display *display, int screen_number)
  XDefaultVisual: { parameters: ["pointer", "i32"], result: "pointer" },
  // int XDefaultDepth(Display *display, int screen_number)
  XDefaultDepth: { parameters: ["pointer", "i32"], result: "i32" },
  // char *XServerVendor(Display *display)
  XServerVendor: { parameters: ["pointer"], result: "pointer" },
  // int XVendorRelease(Display *display)
  XVendorRelease: { parameters: ["pointer"], result: "i32" },
  // char *XDisplayString(Display *display)
  XDisplayString: { parameters: ["pointer"], result: "pointer" },
  // int XConnectionNumber(Display *display)
  XConnectionNumber: { parameters: ["pointer"], result: "i32" },
  // long XMaxRequestSize(Display *display)  (in 4-byte units)
  XMaxRequestSize: { parameters: ["pointer"], result: "i64" },
  // long XExtendedMaxRequestSize(Display *display)  (4-byte units; 0 without BIG-REQUESTS)
  XExtendedMaxRequestSize: { parameters: ["pointer"], result: "i64" },
  // int XFree(void *data)
  XFree: { parameters: ["pointer"], result: "i32" },
  // Bool XQueryExtension(Display*, char *name, int *major_opcode, int *first_event, int *first_error)
  XQueryExtension: { parameters: ["pointer", "buffer", "buffer", "buffer", "buffer"], result: "i32" },

  // --- Event queue and errors (Xlib ch. 11)
  // int XSync(Display *display, Bool discard)
  XSync: { parameters: ["pointer", "i32"], result: "i32" },
  // int XFlush(Display *display)
  XFlush: { parameters: ["pointer"], result: "i32" },
  // int XPending(Display *display)
  XPending: { parameters: ["pointer"], result: "i32" },
  // int XNextEvent(Display *display, XEvent *event_return)
  XNextEvent: { parameters: ["pointer", "buffer"], result: "i32" },
  // Bool XCheckTypedWindowEvent(Display*, Window w, int event_type, XEvent *event_return)
  XCheckTypedWindowEvent: { parameters: ["pointer", "u64", "i32", "buffer"], result: "i32" },
  // Status XSendEvent(Display*, Window w, Bool propagate, long event_mask, XEvent *event_send)
  XSendEvent: { parameters: ["pointer", "u64", "i32", "i64", "buffer"], result: "i32" },
  // XErrorHandler XSetErrorHandler(XErrorHandler handler)
  XSetErrorHandler: { parameters: ["pointer"], result: "pointer" },
  // XIOErrorHandler XSetIOErrorHandler(XIOErrorHandler handler)
  XSetIOErrorHandler: { parameters: ["pointer"], result: "pointer" },
  // void XSetIOErrorExitHandler(Display*, XIOErrorExitHandler handler, void *user_data)  (libX11 >= 1.7)
  XSetIOErrorExitHandler: { parameters: ["pointer", "pointer", "pointer"], result: "void", optional: true },
  // int XGetErrorText(Display*, int code, char *buffer_return, int length)
  XGetErrorText: { parameters: ["pointer", "i32", "buffer", "i32"], result: "i32" },
  // int XSelectInput(Display*, Window w, long event_mask)
  XSelectInput: { parameters: ["pointer", "u64", "i64"], result: "i32" },

  // --- Atoms and properties (Xlib ch. 4)
  // Atom XInternAtom(Display*, char *atom_name, Bool only_if_exists)
  XInternAtom: { parameters: ["pointer", "buffer", "i32"], result: "u64" },
  // char *XGetAtomName(Display*, Atom atom)
  XGetAtomName: { parameters: ["pointer", "u64"], result: "pointer" },
  // int XGetWindowProperty(Display*, Window w, Atom property, long long_offset, long long_length,
  //   Bool delete, Atom req_type, Atom *actual_type_return, int *actual_format_return,
  //   unsigned long *nitems_return, unsigned long *bytes_after_return, unsigned char **prop_return)
  XGetWindowProperty: {
    parameters: [
      "pointer",
      "u64",
      "u64",
      "i64",
      "i64",
      "i32",
      "u64",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
    ],
    result: "i32",
  },
  // int XChangeProperty(Display*, Window w, Atom property, Atom type, int format, int mode,
  //   unsigned char *data, int nelements)
  XChangeProperty: {
    parameters: ["pointer", "u64", "u64", "u64", "i32", "i32", "buffer", "i32"],
    result: "i32",
  },
  // int XDeleteProperty(Display*, Window w, Atom property)
  XDeleteProperty: { parameters: ["pointer", "u64", "u64"], result: "i32" },

  // --- Window information (Xlib ch. 4)
  // Status XQueryTree(Display*, Window w, Window *root_return, Window *parent_return,
  //   Window **children_return, unsigned int *nchildren_return)
  XQueryTree: { parameters: ["pointer", "u64", "buffer", "buffer", "buffer", "buffer"], result: "i32" },
  // Status XGetWindowAttributes(Display*, Window w, XWindowAttributes *window_attributes_return)
  XGetWindowAttributes: { parameters: ["pointer", "u64", "buffer"], result: "i32" },
  // Status XGetGeometry(Display*, Drawable d, Window *root_return, int *x_return, int *y_return,
  //   unsigned int *width_return, unsigned int *height_return, unsigned int *border_width_return,
  //   unsigned int *depth_return)
  XGetGeometry: {
    parameters: ["pointer", "u64", "buffer", "buffer", "buffer", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // Bool XTranslateCoordinates(Display*, Window src_w, Window dest_w, int src_x, int src_y,
  //   int *dest_x_return, int *dest_y_return, Window *child_return)
  XTranslateCoordinates: {
    parameters: ["pointer", "u64", "u64", "i32", "i32", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // Bool XQueryPointer(Display*, Window w, Window *root_return, Window *child_return, int *root_x_return,
  //   int *root_y_return, int *win_x_return, int *win_y_return, unsigned int *mask_return)
  XQueryPointer: {
    parameters: ["pointer", "u64", "buffer", "buffer", "buffer", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },

  // --- Window manipulation (Xlib ch. 3)
  // Window XCreateSimpleWindow(Display*, Window parent, int x, int y, unsigned int width,
  //   unsigned int height, unsigned int border_width, unsigned long border, unsigned long background)
  XCreateSimpleWindow: {
    parameters: ["pointer", "u64", "i32", "i32", "u32", "u32", "u32", "u64", "u64"],
    result: "u64",
  },
  // int XDestroyWindow(Display*, Window w)
  XDestroyWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // int XMapWindow(Display*, Window w)
  XMapWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // int XRaiseWindow(Display*, Window w)
  XRaiseWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // int XMoveResizeWindow(Display*, Window w, int x, int y, unsigned int width, unsigned int height)
  XMoveResizeWindow: { parameters: ["pointer", "u64", "i32", "i32", "u32", "u32"], result: "i32" },
  // int XSetInputFocus(Display*, Window focus, int revert_to, Time time)
  XSetInputFocus: { parameters: ["pointer", "u64", "i32", "u64"], result: "i32" },
  // int XGetInputFocus(Display*, Window *focus_return, int *revert_to_return)
  XGetInputFocus: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // int XWarpPointer(Display*, Window src_w, Window dest_w, int src_x, int src_y,
  //   unsigned int src_width, unsigned int src_height, int dest_x, int dest_y)
  XWarpPointer: {
    parameters: ["pointer", "u64", "u64", "i32", "i32", "u32", "u32", "i32", "i32"],
    result: "i32",
  },

  // Window XCreateWindow(Display*, Window parent, int x, int y, unsigned int width, unsigned int height,
  //   unsigned int border_width, int depth, unsigned int class, Visual *visual, unsigned long valuemask,
  //   XSetWindowAttributes *attributes)
  XCreateWindow: {
    parameters: [
      "pointer",
      "u64",
      "i32",
      "i32",
      "u32",
      "u32",
      "u32",
      "i32",
      "u32",
      "pointer",
      "u64",
      "buffer",
    ],
    result: "u64",
  },
  // int XUnmapWindow(Display*, Window w)
  XUnmapWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // int XMapRaised(Display*, Window w)
  XMapRaised: { parameters: ["pointer", "u64"], result: "i32" },
  // int XMoveWindow(Display*, Window w, int x, int y)
  XMoveWindow: { parameters: ["pointer", "u64", "i32", "i32"], result: "i32" },
  // int XStoreName(Display*, Window w, char *window_name)
  XStoreName: { parameters: ["pointer", "u64", "buffer"], result: "i32" },

  // --- Graphics context and drawing (Xlib ch. 5, 7 and 8)
  // Pixmap XCreateBitmapFromData(Display*, Drawable d, const char *data, unsigned int width, unsigned int height)
  XCreateBitmapFromData: { parameters: ["pointer", "u64", "buffer", "u32", "u32"], result: "u64" },
  // Cursor XCreatePixmapCursor(Display*, Pixmap source, Pixmap mask, XColor *foreground_color,
  //   XColor *background_color, unsigned int x, unsigned int y)
  XCreatePixmapCursor: {
    parameters: ["pointer", "u64", "u64", "buffer", "buffer", "u32", "u32"],
    result: "u64",
  },
  // int XFreeCursor(Display*, Cursor cursor)
  XFreeCursor: { parameters: ["pointer", "u64"], result: "i32" },
  // Pixmap XCreatePixmap(Display*, Drawable d, unsigned int width, unsigned int height, unsigned int depth)
  XCreatePixmap: { parameters: ["pointer", "u64", "u32", "u32", "u32"], result: "u64" },
  // int XFreePixmap(Display*, Pixmap pixmap)
  XFreePixmap: { parameters: ["pointer", "u64"], result: "i32" },
  // GC XCreateGC(Display*, Drawable d, unsigned long valuemask, XGCValues *values)
  XCreateGC: { parameters: ["pointer", "u64", "u64", "pointer"], result: "pointer" },
  // int XFreeGC(Display*, GC gc)
  XFreeGC: { parameters: ["pointer", "pointer"], result: "i32" },
  // int XSetForeground(Display*, GC gc, unsigned long foreground)
  XSetForeground: { parameters: ["pointer", "pointer", "u64"], result: "i32" },
  // int XFillRectangle(Display*, Drawable d, GC gc, int x, int y, unsigned int width, unsigned int height)
  XFillRectangle: { parameters: ["pointer", "u64", "pointer", "i32", "i32", "u32", "u32"], result: "i32" },
  // int XFillPolygon(Display*, Drawable d, GC gc, XPoint *points, int npoints, int shape, int mode)
  XFillPolygon: { parameters: ["pointer", "u64", "pointer", "buffer", "i32", "i32", "i32"], result: "i32" },
  // int XFillArc(Display*, Drawable d, GC gc, int x, int y, unsigned int width, unsigned int height,
  //   int angle1, int angle2)
  XFillArc: {
    parameters: ["pointer", "u64", "pointer", "i32", "i32", "u32", "u32", "i32", "i32"],
    result: "i32",
  },

  // --- Images (Xlib ch. 8 and 16)
  // XImage *XGetImage(Display*, Drawable d, int x, int y, unsigned int width, unsigned int height,
  //   unsigned long plane_mask, int format)
  XGetImage: { parameters: ["pointer", "u64", "i32", "i32", "u32", "u32", "u64", "i32"], result: "pointer" },
  // Same, run on a worker thread so a slow server never stalls the event loop.
  XGetImageNonblocking: {
    name: "XGetImage",
    parameters: ["pointer", "u64", "i32", "i32", "u32", "u32", "u64", "i32"],
    result: "pointer",
    nonblocking: true,
  },
  // int XDestroyImage(XImage *ximage)
  XDestroyImage: { parameters: ["pointer"], result: "i32" },

  // --- Selections (Xlib ch. 4.5)
  // int XSetSelectionOwner(Display*, Atom selection, Window owner, Time time)
  XSetSelectionOwner: { parameters: ["pointer", "u64", "u64", "u64"], result: "i32" },
  // Window XGetSelectionOwner(Display*, Atom selection)
  XGetSelectionOwner: { parameters: ["pointer", "u64"], result: "u64" },
  // int XConvertSelection(Display*, Atom selection, Atom target, Atom property, Window requestor, Time time)
  XConvertSelection: { parameters: ["pointer", "u64", "u64", "u64", "u64", "u64"], result: "i32" },

  // --- Keyboard (Xlib ch. 12 and 16)
  // int XDisplayKeycodes(Display*, int *min_keycodes_return, int *max_keycodes_return)
  XDisplayKeycodes: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // KeySym *XGetKeyboardMapping(Display*, KeyCode first_keycode, int keycode_count,
  //   int *keysyms_per_keycode_return)
  XGetKeyboardMapping: { parameters: ["pointer", "u8", "i32", "buffer"], result: "pointer" },
  // int XChangeKeyboardMapping(Display*, int first_keycode, int keysyms_per_keycode, KeySym *keysyms,
  //   int num_codes)
  XChangeKeyboardMapping: { parameters: ["pointer", "i32", "i32", "buffer", "i32"], result: "i32" },
  // KeyCode XKeysymToKeycode(Display*, KeySym keysym)
  XKeysymToKeycode: { parameters: ["pointer", "u64"], result: "u8" },
  // KeySym XStringToKeysym(char *string)
  XStringToKeysym: { parameters: ["buffer"], result: "u64" },
  // XModifierKeymap *XGetModifierMapping(Display*)
  XGetModifierMapping: { parameters: ["pointer"], result: "pointer" },
  // int XFreeModifiermap(XModifierKeymap *modmap)
  XFreeModifiermap: { parameters: ["pointer"], result: "i32" },

  // --- XKB (XKBlib, part of libX11)
  // Status XkbGetState(Display*, unsigned int device_spec, XkbStatePtr state_return)
  XkbGetState: { parameters: ["pointer", "u32", "buffer"], result: "i32" },
  // XkbDescPtr XkbGetMap(Display*, unsigned int which, unsigned int device_spec)
  XkbGetMap: { parameters: ["pointer", "u32", "u32"], result: "pointer" },
  // Status XkbChangeTypesOfKey(XkbDescPtr xkb, int key, int num_groups, unsigned int groups, int *new_types,
  //   XkbMapChangesPtr changes)
  XkbChangeTypesOfKey: { parameters: ["pointer", "i32", "i32", "u32", "buffer", "buffer"], result: "i32" },
  // KeySym *XkbResizeKeySyms(XkbDescPtr xkb, int key, int needed)
  XkbResizeKeySyms: { parameters: ["pointer", "i32", "i32"], result: "pointer" },
  // Bool XkbChangeMap(Display*, XkbDescPtr xkb, XkbMapChangesPtr changes)
  XkbChangeMap: { parameters: ["pointer", "pointer", "buffer"], result: "i32" },
  // void XkbFreeKeyboard(XkbDescPtr xkb, unsigned int which, Bool free_all)
  XkbFreeKeyboard: { parameters: ["pointer", "u32", "i32"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libX11, opened on first use. */
export const x11 = openLibrary("X11", ["libX11.so.6", "libX11.so"], X11_SYMBOLS, "libx11-6");

/** Common constants from <X11/X.h>. */
export const X = {
  None: 0n,
  CurrentTime: 0n,
  AnyPropertyType: 0n,
  PropModeReplace: 0,
  PropertyNewValue: 0,
  PropertyDelete: 1,
  False: 0,
  True: 1,
  ZPixmap: 2,
  AllPlanes: 0xffffffffffffffffn,
  IsViewable: 2,
  RevertToParent: 2,
  Success: 0,
  // Event types
  KeyPress: 2,
  KeyRelease: 3,
  ButtonPress: 4,
  ButtonRelease: 5,
  MotionNotify: 6,
  PropertyNotify: 28,
  SelectionClear: 29,
  SelectionRequest: 30,
  SelectionNotify: 31,
  ClientMessage: 33,
  // Event masks
  NoEventMask: 0n,
  PropertyChangeMask: 1n << 22n,
  SubstructureNotifyMask: 1n << 19n,
  SubstructureRedirectMask: 1n << 20n,
  // Predefined atoms
  XA_ATOM: 4n,
  XA_CARDINAL: 6n,
  XA_STRING: 31n,
  XA_WINDOW: 33n,
  XA_WM_NAME: 39n,
  XA_WM_CLASS: 67n,
} as const;

/** XModifierKeymap: int max_keypermod @0; KeyCode *modifiermap @8 (8 rows of max_keypermod keycodes). */
export const XModifierKeymapLayout = { max_keypermod: 0, modifiermap: 8 } as const;

/** XkbStateRec (<X11/extensions/XKBstr.h>): 18 bytes. */
export const XkbStateRecLayout = {
  group: 0, // unsigned char (effective group, 0..3)
  locked_group: 1, // unsigned char
  base_group: 2, // unsigned short
  latched_group: 4, // unsigned short
  mods: 6, // unsigned char (effective modifiers)
  base_mods: 7, // unsigned char
  latched_mods: 8, // unsigned char
  locked_mods: 9, // unsigned char (LockMask 0x02 = Caps Lock, Mod2 0x10 = Num Lock on most layouts)
  size: 18,
} as const;

/** Constants from <X11/extensions/XKB.h>. */
export const XKB = {
  UseCoreKbd: 0x100, // device spec of the core keyboard
  KeyTypesMask: 1 << 0,
  KeySymsMask: 1 << 1,
  Group1Mask: 1 << 0,
  OneLevelIndex: 0, // the ONE_LEVEL key type
  NumKbdGroups: 4,
} as const;

/** XkbMapChangesRec: 22 bytes; `changed` @0 (unsigned short), `first_key_sym` @6, `num_key_syms` @7. */
export const XkbMapChangesLayout = { changed: 0, first_key_sym: 6, num_key_syms: 7, size: 22 } as const;

/** Size of the XEvent union. */
export const SIZEOF_XEVENT = 192;

/** Size of XWindowAttributes. */
export const SIZEOF_XWINDOWATTRIBUTES = 136;

/** Field offsets in XWindowAttributes. */
export const XWindowAttributesLayout = {
  x: 0, // int
  y: 4, // int
  width: 8, // int
  height: 12, // int
  border_width: 16, // int
  depth: 20, // int
  visual: 24, // Visual*
  root: 32, // Window
  class: 40, // int
  map_state: 92, // int
  override_redirect: 120, // Bool
} as const;

/** XSetWindowAttributes (112 bytes); set the matching `CW` bit in valuemask for each field used. */
export const XSetWindowAttributesLayout = {
  background_pixmap: 0, // Pixmap
  background_pixel: 8, // unsigned long
  border_pixmap: 16, // Pixmap
  border_pixel: 24, // unsigned long
  bit_gravity: 32, // int
  win_gravity: 36, // int
  backing_store: 40, // int
  backing_planes: 48, // unsigned long
  backing_pixel: 56, // unsigned long
  save_under: 64, // Bool
  event_mask: 72, // long
  do_not_propagate_mask: 80, // long
  override_redirect: 88, // Bool
  colormap: 96, // Colormap
  cursor: 104, // Cursor
  size: 112,
} as const;

/** Window attribute value-mask bits (<X11/X.h>) and window classes. */
export const CW = {
  BackPixel: 1n << 1n,
  BorderPixel: 1n << 3n,
  OverrideRedirect: 1n << 9n,
  SaveUnder: 1n << 10n,
  EventMask: 1n << 11n,
  /** XCreateWindow classes. */
  InputOutput: 1,
  InputOnly: 2,
  /** XCreateWindow depth: the parent's. */
  CopyFromParent: 0,
} as const;

/** XFillPolygon shape and mode arguments. */
export const PolygonShape = { Complex: 0, Nonconvex: 1, Convex: 2, CoordModeOrigin: 0 } as const;

/** XPoint: { short x @0; short y @2 } */
export const XPointLayout = { x: 0, y: 2, size: 4 } as const;

/**
 * The head of `Display` that <X11/Xlib.h> exposes as `_XPrivDisplay` for its own macros
 * (`DefaultScreen`, `ScreenOfDisplay`, `RootWindow`, `DisplayWidth`): what every compiled X client
 * reads directly, so stable. LP64 (x86-64, aarch64).
 */
export const XDisplayLayout = {
  default_screen: 224, // int
  screens: 232, // Screen* (an array of nscreens)
} as const;

/** Field offsets in Screen (<X11/Xlib.h>), LP64; 128 bytes. */
export const XScreenLayout = {
  root: 16, // Window
  width: 24, // int, pixels
  height: 28, // int, pixels
  size: 128,
} as const;

/** Field offsets in Visual (<X11/Xlib.h>). */
export const VisualLayout = {
  visualid: 8, // VisualID
  class: 16, // int (TrueColor 4, DirectColor 5)
  red_mask: 24, // unsigned long
  green_mask: 32, // unsigned long
  blue_mask: 40, // unsigned long
  bits_per_rgb: 48, // int
} as const;

/** Field offsets in XImage. */
export const XImageLayout = {
  width: 0, // int
  height: 4, // int
  format: 12, // int
  data: 16, // char*
  byte_order: 24, // int (LSBFirst 0, MSBFirst 1)
  depth: 40, // int
  bytes_per_line: 44, // int
  bits_per_pixel: 48, // int
  red_mask: 56, // unsigned long
  green_mask: 64, // unsigned long
  blue_mask: 72, // unsigned long
  obdata: 80, // XPointer
} as const;

/** Field offsets in XErrorEvent. */
export const XErrorEventLayout = {
  type: 0, // int
  display: 8, // Display*
  resourceid: 16, // XID
  serial: 24, // unsigned long
  error_code: 32, // unsigned char
  request_code: 33, // unsigned char
  minor_code: 34, // unsigned char
} as const;

/** Field offsets shared by XAnyEvent and the event structs used here. */
export const XEventLayout = {
  type: 0, // int
  serial: 8, // unsigned long
  send_event: 16, // Bool
  display: 24, // Display*
  window: 32, // Window (XAnyEvent, XClientMessageEvent, XPropertyEvent)
  // XClientMessageEvent
  message_type: 40, // Atom
  format: 48, // int
  data: 56, // long l[5]
  // XPropertyEvent
  property_atom: 40, // Atom
  property_time: 48, // Time
  property_state: 56, // int
  // XSelectionRequestEvent: owner at 32, requestor 40, selection 48, target 56, property 64, time 72
  // XSelectionEvent: requestor 32, selection 40, target 48, property 56, time 64
  // XSelectionClearEvent: window 32, selection 40, time 48
} as const;

/** Field offsets in XSelectionRequestEvent (after the XAnyEvent header). */
export const XSelectionRequestEventLayout = {
  owner: 32, // Window
  requestor: 40, // Window
  selection: 48, // Atom
  target: 56, // Atom
  property: 64, // Atom
  time: 72, // Time
} as const;

/** Field offsets in XSelectionEvent (SelectionNotify). */
export const XSelectionEventLayout = {
  requestor: 32, // Window
  selection: 40, // Atom
  target: 48, // Atom
  property: 56, // Atom (None when the conversion was refused)
  time: 64, // Time
} as const;

/** Field offsets in XSelectionClearEvent. */
export const XSelectionClearEventLayout = {
  window: 32, // Window
  selection: 40, // Atom
  time: 48, // Time
} as const;
