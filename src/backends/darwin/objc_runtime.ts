/**
 * The Objective-C runtime over the injected framework tables: cached classes and
 * selectors, and an autorelease pool around every block of messages, so objects
 * the frameworks return autoreleased are freed when the block ends.
 *
 * @module
 */
import { cstr } from "../../../ffi/_c.ts";
import { DriverError } from "../../ports/errors.ts";
import type { CFRef } from "./cf.ts";
import type { Frameworks } from "./frameworks.ts";

/** An Objective-C object or class pointer (`id`), never nil. */
export type Id = Deno.PointerObject;

/** Classes, selectors and autorelease pools. Message sends are `fw.objc.msgSend_*`. */
export class ObjcRuntime {
  readonly #fw: Frameworks;
  readonly #classes = new Map<string, Id>();
  readonly #selectors = new Map<string, Deno.PointerObject>();

  constructor(fw: Frameworks) {
    this.#fw = fw;
  }

  /** The message-send aliases (`objc_msgSend` cast per signature). */
  get send(): Frameworks["objc"] {
    return this.#fw.objc;
  }

  /**
   * A class by name, loading AppKit first (it registers NSWorkspace, NSPasteboard, ...).
   *
   * @throws {DriverError} `library_unavailable` when the class is not registered.
   */
  cls(name: string): Id {
    const cached = this.#classes.get(name);
    if (cached) return cached;
    void this.#fw.appKit.NSPasteboardTypeString; // opens AppKit, which registers its classes
    const found = this.#fw.objc.objc_getClass(cstr(name));
    if (found === null) {
      throw new DriverError("library_unavailable", `The Objective-C class ${name} is not registered`, {
        library: "AppKit",
        hint: "run the driver on macOS 11 or later, where AppKit provides it",
      });
    }
    this.#classes.set(name, found);
    return found;
  }

  /** A selector by name ("setString:forType:"). */
  sel(name: string): Deno.PointerObject {
    let selector = this.#selectors.get(name);
    if (!selector) {
      selector = this.#fw.objc.sel_registerName(cstr(name))!;
      this.#selectors.set(name, selector);
    }
    return selector;
  }

  /**
   * Runs `body` inside an autorelease pool. `body` is synchronous: a pool belongs to
   * the thread that pushed it, and an `await` could resume elsewhere in the stack.
   * Objects `body` got autoreleased die with the pool; retain (CFRetain) any it returns.
   */
  pool<T>(body: () => T): T {
    const pool = this.#fw.objc.objc_autoreleasePoolPush();
    try {
      return body();
    } finally {
      this.#fw.objc.objc_autoreleasePoolPop(pool);
    }
  }

  /** `[receiver selector]` returning an object, or null for nil. */
  id(receiver: Id, selector: string): Id | null {
    return this.#fw.objc.msgSend_id(receiver, this.sel(selector));
  }

  /** `[receiver selector:argument]` returning an object, or null for nil. */
  idWith(receiver: Id, selector: string, argument: Deno.PointerValue): Id | null {
    return this.#fw.objc.msgSend_id_id(receiver, this.sel(selector), argument);
  }

  /** `[receiver selector]` returning a BOOL. */
  bool(receiver: Id, selector: string): boolean {
    return this.#fw.objc.msgSend_bool(receiver, this.sel(selector));
  }

  /** `[receiver selector]` returning an NSInteger. */
  integer(receiver: Id, selector: string): number {
    return Number(this.#fw.objc.msgSend_i64(receiver, this.sel(selector)));
  }

  /** `[receiver selector]` returning a double. */
  double(receiver: Id, selector: string): number {
    return this.#fw.objc.msgSend_f64(receiver, this.sel(selector));
  }

  /** An NSString is a CFString (toll-free bridged): the same pointer serves both APIs. */
  asCF(object: Id): CFRef {
    return object;
  }
}
