/**
 * AppKit: opening it registers the classes the driver messages through the
 * Objective-C runtime (NSWorkspace, NSRunningApplication, NSPasteboard, NSURL,
 * NSBitmapImageRep) and exposes the string constants those messages take.
 *
 * Each constant is an `NSString *const`: the static's value is the NSString pointer,
 * toll-free bridged to CFStringRef.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** AppKit symbols used by the driver. */
export const APPKIT_SYMBOLS = {
  // NSPasteboardType const NSPasteboardTypeString   ("public.utf8-plain-text")
  NSPasteboardTypeString: { type: "pointer" },
  // NSPasteboardType const NSPasteboardTypePNG   ("public.png")
  NSPasteboardTypePNG: { type: "pointer" },
  // NSPasteboardType const NSPasteboardTypeTIFF   ("public.tiff")
  NSPasteboardTypeTIFF: { type: "pointer" },
  // NSPasteboardType const NSPasteboardTypeFileURL   ("public.file-url", macOS 10.13+)
  NSPasteboardTypeFileURL: { type: "pointer" },
  // NSWorkspaceLaunchConfigurationKey const NSWorkspaceLaunchConfigurationArguments
  NSWorkspaceLaunchConfigurationArguments: { type: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** NSApplicationActivationOptions bits (NSRunningApplication.h). */
export const NSApplicationActivationOptions = {
  ActivateAllWindows: 1n << 0n,
  ActivateIgnoringOtherApps: 1n << 1n,
} as const;

/** NSApplicationActivationPolicy values. */
export const NSApplicationActivationPolicy = { Regular: 0, Accessory: 1, Prohibited: 2 } as const;

/** NSWorkspaceLaunchOptions bits (NSWorkspace.h). */
export const NSWorkspaceLaunchOptions = {
  WithoutActivation: 0x00000200n,
  NewInstance: 0x00080000n,
} as const;

/** NSBitmapImageFileType values (NSBitmapImageRep.h). */
export const NSBitmapImageFileType = { TIFF: 0n, PNG: 4n } as const;

/** AppKit, opened on first use. */
export const appKit = openLibrary(
  "AppKit",
  ["/System/Library/Frameworks/AppKit.framework/AppKit"],
  APPKIT_SYMBOLS,
);
