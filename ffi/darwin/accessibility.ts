/**
 * The Accessibility API (HIServices, reached through the ApplicationServices
 * umbrella framework): AXUIElement trees, attributes, actions and the trust check.
 *
 * Every call that messages another process is `nonblocking`: it runs on a worker
 * thread and returns a Promise, so an app that does not answer (up to its messaging
 * timeout) never stalls the driver's event loop. `AXError` is int32_t, `AXValueType`
 * and `AXCopyMultipleAttributeOptions` uint32_t, `pid_t` int32_t, `CGWindowID` uint32_t.
 *
 * @module
 */
import { NativeError } from "../_errors.ts";
import { openLibrary } from "../_open.ts";

/** Accessibility symbols used by the driver. */
export const AX_SYMBOLS = {
  // --- Trust (AXUIElement.h)
  // Boolean AXIsProcessTrusted(void)
  AXIsProcessTrusted: { parameters: [], result: "bool" },
  // Boolean AXIsProcessTrustedWithOptions(CFDictionaryRef options)
  AXIsProcessTrustedWithOptions: { parameters: ["pointer"], result: "bool" },
  // const CFStringRef kAXTrustedCheckOptionPrompt
  kAXTrustedCheckOptionPrompt: { type: "pointer" },

  // --- Elements (AXUIElement.h)
  // CFTypeID AXUIElementGetTypeID(void)
  AXUIElementGetTypeID: { parameters: [], result: "u64" },
  // AXUIElementRef AXUIElementCreateApplication(pid_t pid)   (+1)
  AXUIElementCreateApplication: { parameters: ["i32"], result: "pointer" },
  // AXUIElementRef AXUIElementCreateSystemWide(void)   (+1)
  AXUIElementCreateSystemWide: { parameters: [], result: "pointer" },
  // AXError AXUIElementSetMessagingTimeout(AXUIElementRef element, float timeoutInSeconds)
  AXUIElementSetMessagingTimeout: { parameters: ["pointer", "f32"], result: "i32" },
  // AXError AXUIElementGetPid(AXUIElementRef element, pid_t *pid)
  AXUIElementGetPid: { parameters: ["pointer", "buffer"], result: "i32" },
  // AXError AXUIElementCopyAttributeValue(AXUIElementRef element, CFStringRef attribute, CFTypeRef *value)
  //   (*value +1)
  AXUIElementCopyAttributeValue: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyMultipleAttributeValues(AXUIElementRef element, CFArrayRef attributes,
  //   AXCopyMultipleAttributeOptions options, CFArrayRef *values)   (*values +1; one AXValue of type
  //   kAXValueAXErrorType stands in for each attribute that failed)
  AXUIElementCopyMultipleAttributeValues: {
    parameters: ["pointer", "pointer", "u32", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyAttributeValues(AXUIElementRef element, CFStringRef attribute, CFIndex index,
  //   CFIndex maxValues, CFArrayRef *values)   (*values +1)
  AXUIElementCopyAttributeValues: {
    parameters: ["pointer", "pointer", "i64", "i64", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementGetAttributeValueCount(AXUIElementRef element, CFStringRef attribute, CFIndex *count)
  AXUIElementGetAttributeValueCount: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementIsAttributeSettable(AXUIElementRef element, CFStringRef attribute, Boolean *settable)
  AXUIElementIsAttributeSettable: {
    parameters: ["pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementSetAttributeValue(AXUIElementRef element, CFStringRef attribute, CFTypeRef value)
  AXUIElementSetAttributeValue: {
    parameters: ["pointer", "pointer", "pointer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyActionNames(AXUIElementRef element, CFArrayRef *names)   (*names +1)
  AXUIElementCopyActionNames: { parameters: ["pointer", "buffer"], result: "i32", nonblocking: true },
  // AXError AXUIElementPerformAction(AXUIElementRef element, CFStringRef action)
  AXUIElementPerformAction: { parameters: ["pointer", "pointer"], result: "i32", nonblocking: true },
  // AXError AXUIElementCopyParameterizedAttributeValue(AXUIElementRef element,
  //   CFStringRef parameterizedAttribute, CFTypeRef parameter, CFTypeRef *result)   (*result +1)
  AXUIElementCopyParameterizedAttributeValue: {
    parameters: ["pointer", "pointer", "pointer", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError AXUIElementCopyElementAtPosition(AXUIElementRef application, float x, float y,
  //   AXUIElementRef *element)   (*element +1)
  AXUIElementCopyElementAtPosition: {
    parameters: ["pointer", "f32", "f32", "buffer"],
    result: "i32",
    nonblocking: true,
  },
  // AXError _AXUIElementGetWindow(AXUIElementRef element, CGWindowID *identifier)
  //   (private SPI used by every macOS window manager to pair an AX window with its CGWindowID)
  _AXUIElementGetWindow: { parameters: ["pointer", "buffer"], result: "i32", optional: true },

  // --- Values (AXValue.h)
  // CFTypeID AXValueGetTypeID(void)
  AXValueGetTypeID: { parameters: [], result: "u64" },
  // AXValueRef AXValueCreate(AXValueType theType, const void *valuePtr)   (+1)
  AXValueCreate: { parameters: ["u32", "buffer"], result: "pointer" },
  // AXValueType AXValueGetType(AXValueRef value)
  AXValueGetType: { parameters: ["pointer"], result: "u32" },
  // Boolean AXValueGetValue(AXValueRef value, AXValueType theType, void *valuePtr)
  AXValueGetValue: { parameters: ["pointer", "u32", "buffer"], result: "bool" },
} as const satisfies Deno.ForeignLibraryInterface;

/** AXError codes (AXError.h). */
export const AXError = {
  Success: 0,
  Failure: -25200,
  IllegalArgument: -25201,
  InvalidUIElement: -25202,
  InvalidUIElementObserver: -25203,
  CannotComplete: -25204,
  AttributeUnsupported: -25205,
  ActionUnsupported: -25206,
  NotificationUnsupported: -25207,
  NotImplemented: -25208,
  NotificationAlreadyRegistered: -25209,
  NotificationNotRegistered: -25210,
  APIDisabled: -25211,
  NoValue: -25212,
  ParameterizedAttributeUnsupported: -25213,
  NotEnoughPrecision: -25214,
} as const;

/** The name of an AXError code, for messages ("kAXErrorCannotComplete"). */
export function axErrorName(code: number): string {
  const entry = Object.entries(AXError).find(([, value]) => value === code);
  return entry ? `kAXError${entry[0]}` : `AXError ${code}`;
}

/** AXValueType values (AXValue.h). */
export const AXValueType = {
  Illegal: 0,
  CGPoint: 1,
  CGSize: 2,
  CGRect: 3,
  CFRange: 4,
  AXError: 5,
} as const;

/** The Accessibility API, opened on first use. */
export const accessibility = openLibrary(
  "ApplicationServices",
  [
    "/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices",
    "/System/Library/Frameworks/ApplicationServices.framework/Frameworks/HIServices.framework/HIServices",
  ],
  AX_SYMBOLS,
);

/**
 * Throws a {@linkcode NativeError} naming `api` unless `status` is kAXErrorSuccess.
 *
 * @throws {NativeError} with the AXError code as `status`.
 */
export function unwrapAX(api: string, status: number): void {
  if (status !== AXError.Success) throw new NativeError(api, status, axErrorName(status));
}
