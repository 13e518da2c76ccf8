/**
 * The Objective-C runtime (libobjc): classes, selectors, autorelease pools and
 * `objc_msgSend`.
 *
 * `objc_msgSend` has no prototype of its own: the caller casts it to the method's C
 * signature. Deno's FFI does the same with symbol aliases (`name: "objc_msgSend"`),
 * one entry per signature, named `msgSend_<result>[_<argument>...]` after the types
 * that follow the receiver and selector. Every alias here returns a scalar or an
 * object pointer, never a struct, so no `objc_msgSend_stret` variant is needed on
 * x86_64 (and arm64 has none). `BOOL` is `signed char` on x86_64 and `bool` on arm64;
 * both read as "bool". `NSInteger`/`NSUInteger` are 64-bit.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

function msgSend<const P extends readonly Deno.NativeType[], const R extends Deno.NativeResultType>(
  extra: P,
  result: R,
) {
  return { name: "objc_msgSend", parameters: ["pointer", "pointer", ...extra] as const, result } as const;
}

/** libobjc symbols used by the driver. */
export const OBJC_SYMBOLS = {
  // Class objc_getClass(const char *name)   (NULL when the class is not loaded)
  objc_getClass: { parameters: ["buffer"], result: "pointer" },
  // SEL sel_registerName(const char *str)
  sel_registerName: { parameters: ["buffer"], result: "pointer" },
  // void *objc_autoreleasePoolPush(void)
  objc_autoreleasePoolPush: { parameters: [], result: "pointer" },
  // void objc_autoreleasePoolPop(void *pool)
  objc_autoreleasePoolPop: { parameters: ["pointer"], result: "void" },

  // id objc_msgSend(id self, SEL op)   e.g. +[NSWorkspace sharedWorkspace], -[NSRunningApplication bundleIdentifier]
  msgSend_id: msgSend([], "pointer"),
  // id objc_msgSend(id self, SEL op, id a)   e.g. -[NSPasteboard stringForType:]
  msgSend_id_id: msgSend(["pointer"], "pointer"),
  // id objc_msgSend(id self, SEL op, id a, id b)   e.g. -[NSPasteboard readObjectsForClasses:options:]
  msgSend_id_id_id: msgSend(["pointer", "pointer"], "pointer"),
  // id objc_msgSend(id self, SEL op, pid_t a)   e.g. +[NSRunningApplication runningApplicationWithProcessIdentifier:]
  msgSend_id_i32: msgSend(["i32"], "pointer"),
  // id objc_msgSend(id self, SEL op, NSUInteger a, id b)
  //   e.g. -[NSBitmapImageRep representationUsingType:properties:]
  msgSend_id_u64_id: msgSend(["u64", "pointer"], "pointer"),
  // id objc_msgSend(id self, SEL op, id a, NSUInteger b, id c, NSError **d)
  //   e.g. -[NSWorkspace launchApplicationAtURL:options:configuration:error:]
  msgSend_id_id_u64_id_buffer: msgSend(["pointer", "u64", "pointer", "buffer"], "pointer"),
  // id objc_msgSend(id self, SEL op, id a, id b, NSUInteger c, id d, NSError **e)
  //   e.g. -[NSWorkspace openURLs:withApplicationAtURL:options:configuration:error:]
  msgSend_id_id_id_u64_id_buffer: msgSend(["pointer", "pointer", "u64", "pointer", "buffer"], "pointer"),
  // int objc_msgSend(id self, SEL op)   e.g. -[NSRunningApplication processIdentifier]
  msgSend_i32: msgSend([], "i32"),
  // NSInteger objc_msgSend(id self, SEL op)   e.g. -[NSPasteboard clearContents], -[NSArray count]
  msgSend_i64: msgSend([], "i64"),
  // BOOL objc_msgSend(id self, SEL op)   e.g. -[NSRunningApplication isActive]
  msgSend_bool: msgSend([], "bool"),
  // BOOL objc_msgSend(id self, SEL op, NSUInteger a)   e.g. -[NSRunningApplication activateWithOptions:]
  msgSend_bool_u64: msgSend(["u64"], "bool"),
  // BOOL objc_msgSend(id self, SEL op, id a)   e.g. -[NSPasteboard writeObjects:]
  msgSend_bool_id: msgSend(["pointer"], "bool"),
  // BOOL objc_msgSend(id self, SEL op, id a, id b)   e.g. -[NSPasteboard setString:forType:]
  msgSend_bool_id_id: msgSend(["pointer", "pointer"], "bool"),
  // double objc_msgSend(id self, SEL op)   e.g. -[NSDate timeIntervalSince1970]
  msgSend_f64: msgSend([], "f64"),
} as const satisfies Deno.ForeignLibraryInterface;

/** The Objective-C runtime, opened on first use. */
export const objcRuntime = openLibrary("objc", ["/usr/lib/libobjc.A.dylib"], OBJC_SYMBOLS);
