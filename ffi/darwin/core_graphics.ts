/**
 * CoreGraphics (Quartz Display Services, Quartz Window Services, Quartz Event
 * Services): displays, the window list, capture, synthetic input and the screen
 * capture permission.
 *
 * Types: CGDirectDisplayID, CGWindowID, CGWindowListOption, CGWindowImageOption,
 * CGEventType, CGMouseButton, CGEventField, CGEventTapLocation, CGScrollEventUnit and
 * CGBitmapInfo are uint32_t; CGKeyCode uint16_t; CGEventFlags uint64_t; CGError and
 * CGEventSourceStateID int32_t; size_t and UniCharCount unsigned long. CGEvent,
 * CGEventSource, CGImage and the window list are CF objects released with CFRelease
 * (CGImageRelease and CGDisplayModeRelease are NULL-safe aliases).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";
import { CGPOINT, CGRECT } from "./geometry.ts";

/** CoreGraphics symbols used by the driver. */
export const CG_SYMBOLS = {
  // --- Displays (CGDirectDisplay.h, CGDisplayConfiguration.h)
  // CGError CGGetActiveDisplayList(uint32_t maxDisplays, CGDirectDisplayID *activeDisplays,
  //   uint32_t *displayCount)
  CGGetActiveDisplayList: { parameters: ["u32", "buffer", "buffer"], result: "i32" },
  // CGDirectDisplayID CGMainDisplayID(void)
  CGMainDisplayID: { parameters: [], result: "u32" },
  // CGRect CGDisplayBounds(CGDirectDisplayID display)
  CGDisplayBounds: { parameters: ["u32"], result: CGRECT },
  // boolean_t CGDisplayIsBuiltin(CGDirectDisplayID display)
  CGDisplayIsBuiltin: { parameters: ["u32"], result: "u32" },
  // CGDisplayModeRef CGDisplayCopyDisplayMode(CGDirectDisplayID display)   (+1)
  CGDisplayCopyDisplayMode: { parameters: ["u32"], result: "pointer" },
  // size_t CGDisplayModeGetWidth(CGDisplayModeRef mode)   (points)
  CGDisplayModeGetWidth: { parameters: ["pointer"], result: "u64" },
  // size_t CGDisplayModeGetPixelWidth(CGDisplayModeRef mode)
  CGDisplayModeGetPixelWidth: { parameters: ["pointer"], result: "u64" },
  // size_t CGDisplayModeGetPixelHeight(CGDisplayModeRef mode)
  CGDisplayModeGetPixelHeight: { parameters: ["pointer"], result: "u64" },
  // double CGDisplayModeGetRefreshRate(CGDisplayModeRef mode)
  CGDisplayModeGetRefreshRate: { parameters: ["pointer"], result: "f64" },
  // void CGDisplayModeRelease(CGDisplayModeRef mode)
  CGDisplayModeRelease: { parameters: ["pointer"], result: "void" },

  // --- Window list (CGWindow.h)
  // CFArrayRef CGWindowListCopyWindowInfo(CGWindowListOption option, CGWindowID relativeToWindow)   (+1)
  CGWindowListCopyWindowInfo: { parameters: ["u32", "u32"], result: "pointer" },
  // bool CGRectMakeWithDictionaryRepresentation(CFDictionaryRef dict, CGRect *rect)
  CGRectMakeWithDictionaryRepresentation: { parameters: ["pointer", "buffer"], result: "bool" },
  // const CFStringRef kCGWindowNumber   (CFNumber, CGWindowID)
  kCGWindowNumber: { type: "pointer" },
  // const CFStringRef kCGWindowLayer   (CFNumber, int)
  kCGWindowLayer: { type: "pointer" },
  // const CFStringRef kCGWindowBounds   (CFDictionary, CGRect dictionary representation)
  kCGWindowBounds: { type: "pointer" },
  // const CFStringRef kCGWindowOwnerPID   (CFNumber, pid_t)
  kCGWindowOwnerPID: { type: "pointer" },
  // const CFStringRef kCGWindowOwnerName   (CFString, optional)
  kCGWindowOwnerName: { type: "pointer" },
  // const CFStringRef kCGWindowName   (CFString; present only with screen recording access since 10.15)
  kCGWindowName: { type: "pointer" },
  // const CFStringRef kCGWindowIsOnscreen   (CFBoolean, optional)
  kCGWindowIsOnscreen: { type: "pointer" },
  // const CFStringRef kCGWindowAlpha   (CFNumber, float)
  kCGWindowAlpha: { type: "pointer" },

  // --- Capture (CGWindow.h, CGDirectDisplay.h); both are obsoleted in the macOS 15 SDK in favour of
  // ScreenCaptureKit, so they are optional here and their absence is a precise refusal.
  // CGImageRef CGWindowListCreateImage(CGRect screenBounds, CGWindowListOption listOption,
  //   CGWindowID windowID, CGWindowImageOption imageOption)   (+1)
  CGWindowListCreateImage: { parameters: [CGRECT, "u32", "u32", "u32"], result: "pointer", optional: true },
  // CGImageRef CGDisplayCreateImage(CGDirectDisplayID displayID)   (+1)
  CGDisplayCreateImage: { parameters: ["u32"], result: "pointer", optional: true },
  // size_t CGImageGetWidth(CGImageRef image)
  CGImageGetWidth: { parameters: ["pointer"], result: "u64" },
  // size_t CGImageGetHeight(CGImageRef image)
  CGImageGetHeight: { parameters: ["pointer"], result: "u64" },
  // size_t CGImageGetBytesPerRow(CGImageRef image)
  CGImageGetBytesPerRow: { parameters: ["pointer"], result: "u64" },
  // size_t CGImageGetBitsPerPixel(CGImageRef image)
  CGImageGetBitsPerPixel: { parameters: ["pointer"], result: "u64" },
  // size_t CGImageGetBitsPerComponent(CGImageRef image)
  CGImageGetBitsPerComponent: { parameters: ["pointer"], result: "u64" },
  // CGBitmapInfo CGImageGetBitmapInfo(CGImageRef image)
  CGImageGetBitmapInfo: { parameters: ["pointer"], result: "u32" },
  // CGDataProviderRef CGImageGetDataProvider(CGImageRef image)   (Get rule)
  CGImageGetDataProvider: { parameters: ["pointer"], result: "pointer" },
  // CFDataRef CGDataProviderCopyData(CGDataProviderRef provider)   (+1)
  CGDataProviderCopyData: { parameters: ["pointer"], result: "pointer" },
  // void CGImageRelease(CGImageRef image)
  CGImageRelease: { parameters: ["pointer"], result: "void" },

  // --- Events (CGEvent.h, CGEventSource.h, CGRemoteOperation.h)
  // CGEventSourceRef CGEventSourceCreate(CGEventSourceStateID stateID)   (+1)
  CGEventSourceCreate: { parameters: ["i32"], result: "pointer" },
  // CGEventFlags CGEventSourceFlagsState(CGEventSourceStateID stateID)
  CGEventSourceFlagsState: { parameters: ["i32"], result: "u64" },
  // bool CGEventSourceButtonState(CGEventSourceStateID stateID, CGMouseButton button)
  CGEventSourceButtonState: { parameters: ["i32", "u32"], result: "bool" },
  // CGEventRef CGEventCreate(CGEventSourceRef source)   (+1)
  CGEventCreate: { parameters: ["pointer"], result: "pointer" },
  // CGPoint CGEventGetLocation(CGEventRef event)
  CGEventGetLocation: { parameters: ["pointer"], result: CGPOINT },
  // CGEventRef CGEventCreateMouseEvent(CGEventSourceRef source, CGEventType mouseType,
  //   CGPoint mouseCursorPosition, CGMouseButton mouseButton)   (+1)
  CGEventCreateMouseEvent: { parameters: ["pointer", "u32", CGPOINT, "u32"], result: "pointer" },
  // CGEventRef CGEventCreateKeyboardEvent(CGEventSourceRef source, CGKeyCode virtualKey, bool keyDown)   (+1)
  CGEventCreateKeyboardEvent: { parameters: ["pointer", "u16", "bool"], result: "pointer" },
  // CGEventRef CGEventCreateScrollWheelEvent2(CGEventSourceRef source, CGScrollEventUnit units,
  //   uint32_t wheelCount, int32_t wheel1, int32_t wheel2, int32_t wheel3)   (+1; the non-variadic form,
  //   since a variadic call cannot be described to Deno's FFI portably on arm64)
  CGEventCreateScrollWheelEvent2: {
    parameters: ["pointer", "u32", "u32", "i32", "i32", "i32"],
    result: "pointer",
  },
  // void CGEventKeyboardSetUnicodeString(CGEventRef event, UniCharCount stringLength,
  //   const UniChar *unicodeString)
  CGEventKeyboardSetUnicodeString: { parameters: ["pointer", "u64", "buffer"], result: "void" },
  // void CGEventSetFlags(CGEventRef event, CGEventFlags flags)
  CGEventSetFlags: { parameters: ["pointer", "u64"], result: "void" },
  // void CGEventSetIntegerValueField(CGEventRef event, CGEventField field, int64_t value)
  CGEventSetIntegerValueField: { parameters: ["pointer", "u32", "i64"], result: "void" },
  // void CGEventSetLocation(CGEventRef event, CGPoint location)
  CGEventSetLocation: { parameters: ["pointer", CGPOINT], result: "void" },
  // void CGEventPost(CGEventTapLocation tap, CGEventRef event)
  CGEventPost: { parameters: ["u32", "pointer"], result: "void" },
  // void CGEventPostToPid(pid_t pid, CGEventRef event)
  CGEventPostToPid: { parameters: ["i32", "pointer"], result: "void" },
  // CGError CGWarpMouseCursorPosition(CGPoint newCursorPosition)
  CGWarpMouseCursorPosition: { parameters: [CGPOINT], result: "i32" },

  // --- Permissions (CGWindow.h, CGEvent.h; macOS 10.15+)
  // bool CGPreflightScreenCaptureAccess(void)
  CGPreflightScreenCaptureAccess: { parameters: [], result: "bool", optional: true },
  // bool CGRequestScreenCaptureAccess(void)
  CGRequestScreenCaptureAccess: { parameters: [], result: "bool", optional: true },
  // bool CGPreflightPostEventAccess(void)
  CGPreflightPostEventAccess: { parameters: [], result: "bool", optional: true },

  // --- Session (CGSession.h)
  // CFDictionaryRef CGSessionCopyCurrentDictionary(void)   (+1; NULL outside a window server session)
  CGSessionCopyCurrentDictionary: { parameters: [], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** CGWindowListOption bits (CGWindow.h). */
export const CGWindowListOption = {
  All: 0,
  OnScreenOnly: 1 << 0,
  OnScreenAboveWindow: 1 << 1,
  OnScreenBelowWindow: 1 << 2,
  IncludingWindow: 1 << 3,
  ExcludeDesktopElements: 1 << 4,
} as const;

/** CGWindowImageOption bits (CGWindow.h). */
export const CGWindowImageOption = {
  Default: 0,
  BoundsIgnoreFraming: 1 << 0,
  ShouldBeOpaque: 1 << 1,
  OnlyShadows: 1 << 2,
  BestResolution: 1 << 3,
  NominalResolution: 1 << 4,
} as const;

/** CGEventType values (CGEventTypes.h). */
export const CGEventType = {
  LeftMouseDown: 1,
  LeftMouseUp: 2,
  RightMouseDown: 3,
  RightMouseUp: 4,
  MouseMoved: 5,
  LeftMouseDragged: 6,
  RightMouseDragged: 7,
  KeyDown: 10,
  KeyUp: 11,
  FlagsChanged: 12,
  ScrollWheel: 22,
  OtherMouseDown: 25,
  OtherMouseUp: 26,
  OtherMouseDragged: 27,
} as const;

/** CGMouseButton values; buttons past 2 are "other" buttons by number. */
export const CGMouseButton = { Left: 0, Right: 1, Center: 2 } as const;

/** CGEventField values used by the driver (CGEventTypes.h). */
export const CGEventField = {
  MouseEventClickState: 1,
  MouseEventButtonNumber: 3,
  KeyboardEventKeycode: 9,
  ScrollWheelEventDeltaAxis1: 11,
  ScrollWheelEventDeltaAxis2: 12,
  EventTargetProcessSerialNumber: 39,
  EventTargetUnixProcessID: 40,
  EventSourceUnixProcessID: 41,
  EventSourceUserData: 42,
  /** The window number AppKit's NSEvent bridge reads (undocumented; the reference stamps it). */
  WindowNumber: 51,
  /** One id shared by the events of one gesture (undocumented; the reference stamps it). */
  GestureGroup: 58,
  MouseEventWindowUnderMousePointer: 91,
  MouseEventWindowUnderMousePointerThatCanHandleThisEvent: 92,
} as const;

/** CGEventFlags modifier masks (CGEventTypes.h). */
export const CGEventFlags = {
  AlphaShift: 0x00010000n,
  Shift: 0x00020000n,
  Control: 0x00040000n,
  Alternate: 0x00080000n,
  Command: 0x00100000n,
  NumericPad: 0x00200000n,
  SecondaryFn: 0x00800000n,
} as const;

/** CGEventTapLocation values. */
export const CGEventTapLocation = { HID: 0, Session: 1, AnnotatedSession: 2 } as const;

/** CGEventSourceStateID values. */
export const CGEventSourceStateID = { Private: -1, CombinedSession: 0, HIDSystem: 1 } as const;

/** CGScrollEventUnit values. */
export const CGScrollEventUnit = { Pixel: 0, Line: 1 } as const;

/**
 * CGBitmapInfo fields (CGImage.h): alpha info in the low 5 bits, float components at bit 8,
 * byte order in bits 12-14, the pixel format (kCGImagePixelFormatInfo) in bits 16-19.
 */
export const CGBitmapInfo = {
  AlphaInfoMask: 0x1f,
  FloatComponents: 1 << 8,
  ByteOrderMask: 0x7000,
  ByteOrder16Little: 1 << 12,
  ByteOrder32Little: 2 << 12,
  ByteOrder16Big: 3 << 12,
  ByteOrder32Big: 4 << 12,
  PixelFormatMask: 0xf0000,
} as const;

/** CoreGraphics, opened on first use (its own framework since macOS 10.8). */
export const coreGraphics = openLibrary(
  "CoreGraphics",
  [
    "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics",
    "/System/Library/Frameworks/ApplicationServices.framework/Frameworks/CoreGraphics.framework/CoreGraphics",
  ],
  CG_SYMBOLS,
);
