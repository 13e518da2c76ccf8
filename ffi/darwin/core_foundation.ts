/**
 * CoreFoundation: the object model under every macOS framework the driver calls
 * (strings, numbers, booleans, arrays, dictionaries, data, URLs, bundles).
 *
 * Ownership follows the Create rule: a function named `*Create*` or `*Copy*` returns
 * a +1 reference the caller releases once with `CFRelease`; `*Get*` functions return
 * a reference the caller does not own. `CFAllocatorRef` arguments are always NULL
 * (kCFAllocatorDefault). `CFIndex` is `signed long` (i64), `CFTypeID` `unsigned long`.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";
import { CFRANGE } from "./geometry.ts";

/** CoreFoundation symbols used by the driver. */
export const CF_SYMBOLS = {
  // --- CFType (CFBase.h)
  // void CFRelease(CFTypeRef cf)
  CFRelease: { parameters: ["pointer"], result: "void" },
  // CFTypeRef CFRetain(CFTypeRef cf)
  CFRetain: { parameters: ["pointer"], result: "pointer" },
  // CFTypeID CFGetTypeID(CFTypeRef cf)
  CFGetTypeID: { parameters: ["pointer"], result: "u64" },
  // Boolean CFEqual(CFTypeRef cf1, CFTypeRef cf2)
  CFEqual: { parameters: ["pointer", "pointer"], result: "bool" },
  // CFHashCode CFHash(CFTypeRef cf)
  CFHash: { parameters: ["pointer"], result: "u64" },

  // --- CFString (CFString.h)
  // CFTypeID CFStringGetTypeID(void)
  CFStringGetTypeID: { parameters: [], result: "u64" },
  // CFStringRef CFStringCreateWithCharacters(CFAllocatorRef alloc, const UniChar *chars, CFIndex numChars)
  CFStringCreateWithCharacters: { parameters: ["pointer", "buffer", "i64"], result: "pointer" },
  // CFIndex CFStringGetLength(CFStringRef theString)
  CFStringGetLength: { parameters: ["pointer"], result: "i64" },
  // void CFStringGetCharacters(CFStringRef theString, CFRange range, UniChar *buffer)
  CFStringGetCharacters: { parameters: ["pointer", CFRANGE, "buffer"], result: "void" },

  // --- CFNumber and CFBoolean (CFNumber.h)
  // CFTypeID CFNumberGetTypeID(void)
  CFNumberGetTypeID: { parameters: [], result: "u64" },
  // CFNumberRef CFNumberCreate(CFAllocatorRef allocator, CFNumberType theType, const void *valuePtr)
  CFNumberCreate: { parameters: ["pointer", "i64", "buffer"], result: "pointer" },
  // Boolean CFNumberGetValue(CFNumberRef number, CFNumberType theType, void *valuePtr)
  CFNumberGetValue: { parameters: ["pointer", "i64", "buffer"], result: "bool" },
  // Boolean CFNumberIsFloatType(CFNumberRef number)
  CFNumberIsFloatType: { parameters: ["pointer"], result: "bool" },
  // CFTypeID CFBooleanGetTypeID(void)
  CFBooleanGetTypeID: { parameters: [], result: "u64" },
  // Boolean CFBooleanGetValue(CFBooleanRef boolean)
  CFBooleanGetValue: { parameters: ["pointer"], result: "bool" },
  // const CFBooleanRef kCFBooleanTrue
  kCFBooleanTrue: { type: "pointer" },
  // const CFBooleanRef kCFBooleanFalse
  kCFBooleanFalse: { type: "pointer" },

  // --- CFArray (CFArray.h)
  // CFTypeID CFArrayGetTypeID(void)
  CFArrayGetTypeID: { parameters: [], result: "u64" },
  // CFArrayRef CFArrayCreate(CFAllocatorRef allocator, const void **values, CFIndex numValues,
  //   const CFArrayCallBacks *callBacks)
  CFArrayCreate: { parameters: ["pointer", "buffer", "i64", "pointer"], result: "pointer" },
  // CFIndex CFArrayGetCount(CFArrayRef theArray)
  CFArrayGetCount: { parameters: ["pointer"], result: "i64" },
  // void CFArrayGetValues(CFArrayRef theArray, CFRange range, const void **values)
  CFArrayGetValues: { parameters: ["pointer", CFRANGE, "buffer"], result: "void" },

  // --- CFDictionary (CFDictionary.h)
  // CFTypeID CFDictionaryGetTypeID(void)
  CFDictionaryGetTypeID: { parameters: [], result: "u64" },
  // CFDictionaryRef CFDictionaryCreate(CFAllocatorRef allocator, const void **keys, const void **values,
  //   CFIndex numValues, const CFDictionaryKeyCallBacks *keyCallBacks,
  //   const CFDictionaryValueCallBacks *valueCallBacks)
  CFDictionaryCreate: {
    parameters: ["pointer", "buffer", "buffer", "i64", "pointer", "pointer"],
    result: "pointer",
  },
  // const void *CFDictionaryGetValue(CFDictionaryRef theDict, const void *key)
  CFDictionaryGetValue: { parameters: ["pointer", "pointer"], result: "pointer" },

  // --- CFData (CFData.h)
  // CFTypeID CFDataGetTypeID(void)
  CFDataGetTypeID: { parameters: [], result: "u64" },
  // CFDataRef CFDataCreate(CFAllocatorRef allocator, const UInt8 *bytes, CFIndex length)
  CFDataCreate: { parameters: ["pointer", "buffer", "i64"], result: "pointer" },
  // CFIndex CFDataGetLength(CFDataRef theData)
  CFDataGetLength: { parameters: ["pointer"], result: "i64" },
  // void CFDataGetBytes(CFDataRef theData, CFRange range, UInt8 *buffer)
  CFDataGetBytes: { parameters: ["pointer", CFRANGE, "buffer"], result: "void" },

  // --- CFURL (CFURL.h)
  // CFTypeID CFURLGetTypeID(void)
  CFURLGetTypeID: { parameters: [], result: "u64" },
  // CFURLRef CFURLCreateFromFileSystemRepresentation(CFAllocatorRef allocator, const UInt8 *buffer,
  //   CFIndex bufLen, Boolean isDirectory)
  CFURLCreateFromFileSystemRepresentation: {
    parameters: ["pointer", "buffer", "i64", "bool"],
    result: "pointer",
  },
  // CFURLRef CFURLCreateWithBytes(CFAllocatorRef allocator, const UInt8 *URLBytes, CFIndex length,
  //   CFStringEncoding encoding, CFURLRef baseURL)
  CFURLCreateWithBytes: { parameters: ["pointer", "buffer", "i64", "u32", "pointer"], result: "pointer" },
  // Boolean CFURLGetFileSystemRepresentation(CFURLRef url, Boolean resolveAgainstBase, UInt8 *buffer,
  //   CFIndex maxBufLen)
  CFURLGetFileSystemRepresentation: { parameters: ["pointer", "bool", "buffer", "i64"], result: "bool" },

  // --- CFRunLoop (CFRunLoop.h)
  // CFRunLoopRunResult CFRunLoopRunInMode(CFRunLoopMode mode, CFTimeInterval seconds,
  //   Boolean returnAfterSourceHandled)   (SInt32; runs the calling thread's run loop)
  CFRunLoopRunInMode: { parameters: ["pointer", "f64", "bool"], result: "i32" },
  // const CFRunLoopMode kCFRunLoopDefaultMode   (a CFStringRef)
  kCFRunLoopDefaultMode: { type: "pointer" },

  // --- CFBundle (CFBundle.h)
  // CFBundleRef CFBundleCreate(CFAllocatorRef allocator, CFURLRef bundleURL)
  CFBundleCreate: { parameters: ["pointer", "pointer"], result: "pointer" },
  // CFStringRef CFBundleGetIdentifier(CFBundleRef bundle)   (Get rule)
  CFBundleGetIdentifier: { parameters: ["pointer"], result: "pointer" },
  // CFTypeRef CFBundleGetValueForInfoDictionaryKey(CFBundleRef bundle, CFStringRef key)   (Get rule)
  CFBundleGetValueForInfoDictionaryKey: { parameters: ["pointer", "pointer"], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** CFRunLoopRunResult values (CFRunLoop.h). */
export const CFRunLoopRunResult = { Finished: 1, Stopped: 2, TimedOut: 3, HandledSource: 4 } as const;

/** CFNumberType values (CFNumber.h). */
export const CFNumberType = {
  SInt32: 3,
  SInt64: 4,
  Float64: 6,
  Double: 13,
} as const;

/** kCFStringEncodingUTF8 (CFString.h). */
export const kCFStringEncodingUTF8 = 0x08000100;

/** CoreFoundation, opened on first use. */
export const coreFoundation = openLibrary(
  "CoreFoundation",
  ["/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"],
  CF_SYMBOLS,
);
