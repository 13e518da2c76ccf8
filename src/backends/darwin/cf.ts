/**
 * CoreFoundation values with ownership made explicit. A `Create`/`Copy` result is
 * wrapped at once in an {@linkcode Owned} (released exactly once, on dispose); a
 * `Get` result is a bare {@linkcode CFRef} the caller must not release and must not
 * use after its owner is released.
 *
 * @module
 */
import { cfRange } from "../../../ffi/darwin/geometry.ts";
import { CFNumberType, kCFStringEncodingUTF8 } from "../../../ffi/darwin/core_foundation.ts";
import { RTLD_DEFAULT } from "../../../ffi/darwin/libsystem.ts";
import { cstr } from "../../../ffi/_c.ts";
import { DriverError } from "../../ports/errors.ts";
import type { Frameworks } from "./frameworks.ts";

/** A CoreFoundation object reference (CFTypeRef), never null. */
export type CFRef = Deno.PointerObject;

/** The pointer at an address; null for 0. */
export function pointerAt(address: bigint): Deno.PointerValue {
  return Deno.UnsafePointer.create(address);
}

/** A pointer's address (0n for null). */
export function addressOf(pointer: Deno.PointerValue): bigint {
  return pointer === null ? 0n : BigInt(Deno.UnsafePointer.value(pointer));
}

/** A `const void **` array of pointers, for "buffer" parameters. */
export function pointerArray(refs: readonly Deno.PointerValue[]): BigUint64Array<ArrayBuffer> {
  return new BigUint64Array(refs.map(addressOf));
}

/** A one-pointer out-parameter cell (`CFTypeRef *`); read it with {@linkcode readOut}. */
export function outCell(): BigUint64Array<ArrayBuffer> {
  return new BigUint64Array(1);
}

/** The pointer a callee wrote into an out-parameter cell. */
export function readOut(cell: BigUint64Array): Deno.PointerValue {
  return pointerAt(cell[0]);
}

/** A +1 reference: released exactly once, by {@linkcode Owned.release} or on dispose. */
export class Owned implements Disposable {
  #ref: CFRef | null;
  readonly #release: (ref: CFRef) => void;

  constructor(ref: CFRef, release: (ref: CFRef) => void) {
    this.#ref = ref;
    this.#release = release;
  }

  /** The reference, while it is still owned. @throws {TypeError} after release. */
  get ref(): CFRef {
    if (this.#ref === null) throw new TypeError("CF reference used after its release");
    return this.#ref;
  }

  /** False once released or handed over. */
  get live(): boolean {
    return this.#ref !== null;
  }

  /** Hands the reference over to a new owner, who releases it. */
  take(): CFRef {
    const ref = this.ref;
    this.#ref = null;
    return ref;
  }

  /** Releases the reference; later calls do nothing. */
  release(): void {
    const ref = this.#ref;
    this.#ref = null;
    if (ref !== null) this.#release(ref);
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/** What kind of CF value a reference holds. */
export type CFKind =
  | "string"
  | "number"
  | "boolean"
  | "array"
  | "dictionary"
  | "data"
  | "url"
  | "ax_element"
  | "ax_value"
  | "other";

/** CoreFoundation conversions over the injected framework tables. */
export class CoreFoundation {
  readonly #fw: Frameworks;
  #typeIds: Map<bigint, CFKind> | null = null;
  readonly #interned = new Map<string, Owned>();
  #callbacks: { array: Deno.PointerValue; key: Deno.PointerValue; value: Deno.PointerValue } | null = null;

  constructor(fw: Frameworks) {
    this.#fw = fw;
  }

  /** Takes ownership of a Create/Copy result; null for a NULL result. */
  own(ref: Deno.PointerValue): Owned | null {
    return ref === null ? null : new Owned(ref, (r) => this.#fw.cf.CFRelease(r));
  }

  /** Takes ownership of a Create/Copy result that must not be NULL. @throws {DriverError} native_call_failed */
  ownOrThrow(ref: Deno.PointerValue, api: string): Owned {
    const owned = this.own(ref);
    if (!owned) throw new DriverError("native_call_failed", `${api} returned NULL`, { api });
    return owned;
  }

  /** Retains a Get-rule reference so it outlives its owner. */
  retain(ref: CFRef): Owned {
    return this.ownOrThrow(this.#fw.cf.CFRetain(ref), "CFRetain");
  }

  /** The kind of value behind a reference. */
  kind(ref: CFRef): CFKind {
    return this.#kinds().get(this.#fw.cf.CFGetTypeID(ref)) ?? "other";
  }

  #kinds(): Map<bigint, CFKind> {
    if (!this.#typeIds) {
      const { cf, ax } = this.#fw;
      this.#typeIds = new Map<bigint, CFKind>([
        [cf.CFStringGetTypeID(), "string"],
        [cf.CFNumberGetTypeID(), "number"],
        [cf.CFBooleanGetTypeID(), "boolean"],
        [cf.CFArrayGetTypeID(), "array"],
        [cf.CFDictionaryGetTypeID(), "dictionary"],
        [cf.CFDataGetTypeID(), "data"],
        [cf.CFURLGetTypeID(), "url"],
        [ax.AXUIElementGetTypeID(), "ax_element"],
        [ax.AXValueGetTypeID(), "ax_value"],
      ]);
    }
    return this.#typeIds;
  }

  /** A new CFString. */
  string(text: string): Owned {
    const units = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    return this.ownOrThrow(
      this.#fw.cf.CFStringCreateWithCharacters(null, units, BigInt(units.length)),
      "CFStringCreateWithCharacters",
    );
  }

  /** A CFString kept for the back end's lifetime (attribute and action names); released by {@linkcode close}. */
  constant(text: string): CFRef {
    let owned = this.#interned.get(text);
    if (!owned) {
      owned = this.string(text);
      this.#interned.set(text, owned);
    }
    return owned.ref;
  }

  /** The text of a CFString, or null for another kind. */
  toString(ref: Deno.PointerValue): string | null {
    if (ref === null || this.kind(ref) !== "string") return null;
    const length = Number(this.#fw.cf.CFStringGetLength(ref));
    if (length === 0) return "";
    const units = new Uint16Array(length);
    this.#fw.cf.CFStringGetCharacters(ref, cfRange(0, length), units);
    let text = "";
    for (let i = 0; i < length; i += 4096) text += String.fromCharCode(...units.subarray(i, i + 4096));
    return text;
  }

  /** A CFNumber holding an integer (SInt64) or a double (Float64). */
  number(value: number): Owned {
    const integer = Number.isSafeInteger(value);
    const cell = integer ? new BigInt64Array([BigInt(value)]) : new Float64Array([value]);
    return this.ownOrThrow(
      this.#fw.cf.CFNumberCreate(null, BigInt(integer ? CFNumberType.SInt64 : CFNumberType.Float64), cell),
      "CFNumberCreate",
    );
  }

  /** The value of a CFNumber (or a CFBoolean as 0/1), or null for another kind. */
  toNumber(ref: Deno.PointerValue): number | null {
    if (ref === null) return null;
    const kind = this.kind(ref);
    if (kind === "boolean") return this.#fw.cf.CFBooleanGetValue(ref) ? 1 : 0;
    if (kind !== "number") return null;
    if (this.#fw.cf.CFNumberIsFloatType(ref)) {
      const cell = new Float64Array(1);
      this.#fw.cf.CFNumberGetValue(ref, BigInt(CFNumberType.Float64), cell);
      return cell[0];
    }
    const cell = new BigInt64Array(1);
    this.#fw.cf.CFNumberGetValue(ref, BigInt(CFNumberType.SInt64), cell);
    return Number(cell[0]);
  }

  /** The value of a CFBoolean (or a CFNumber as non-zero), or null for another kind. */
  toBoolean(ref: Deno.PointerValue): boolean | null {
    const value = this.toNumber(ref);
    return value === null ? null : value !== 0;
  }

  /** kCFBooleanTrue or kCFBooleanFalse (constants; never released). */
  boolean(value: boolean): CFRef {
    const ref = value ? this.#fw.cf.kCFBooleanTrue : this.#fw.cf.kCFBooleanFalse;
    if (ref === null) throw new DriverError("native_call_failed", "kCFBooleanTrue is not exported", {});
    return ref;
  }

  /** The elements of a CFArray (Get rule: valid while the array is), or [] for another kind. */
  items(ref: Deno.PointerValue): CFRef[] {
    if (ref === null || this.kind(ref) !== "array") return [];
    const count = Number(this.#fw.cf.CFArrayGetCount(ref));
    if (count === 0) return [];
    const cells = new BigUint64Array(count);
    this.#fw.cf.CFArrayGetValues(ref, cfRange(0, count), cells);
    return [...cells].map(pointerAt).filter((p): p is CFRef => p !== null);
  }

  #standardCallbacks() {
    if (!this.#callbacks) {
      const handle = pointerAt(BigInt.asUintN(64, RTLD_DEFAULT));
      const find = (name: string) => {
        const address = this.#fw.system.dlsym(handle, cstr(name));
        if (address === null) throw new DriverError("native_call_failed", `dlsym cannot find ${name}`, {});
        return address;
      };
      this.#callbacks = {
        array: find("kCFTypeArrayCallBacks"),
        key: find("kCFTypeDictionaryKeyCallBacks"),
        value: find("kCFTypeDictionaryValueCallBacks"),
      };
    }
    return this.#callbacks;
  }

  /** A new CFArray retaining `refs` (kCFTypeArrayCallBacks). */
  array(refs: readonly CFRef[]): Owned {
    return this.ownOrThrow(
      this.#fw.cf.CFArrayCreate(
        null,
        pointerArray(refs),
        BigInt(refs.length),
        this.#standardCallbacks().array,
      ),
      "CFArrayCreate",
    );
  }

  /** A new CFDictionary retaining its keys and values (kCFType callbacks). */
  dictionary(entries: readonly (readonly [CFRef, CFRef])[]): Owned {
    const callbacks = this.#standardCallbacks();
    return this.ownOrThrow(
      this.#fw.cf.CFDictionaryCreate(
        null,
        pointerArray(entries.map(([key]) => key)),
        pointerArray(entries.map(([, value]) => value)),
        BigInt(entries.length),
        callbacks.key,
        callbacks.value,
      ),
      "CFDictionaryCreate",
    );
  }

  /** The value under `key` in a CFDictionary (Get rule), or null. */
  lookup(dictionary: Deno.PointerValue, key: Deno.PointerValue): CFRef | null {
    if (dictionary === null || key === null || this.kind(dictionary) !== "dictionary") return null;
    return this.#fw.cf.CFDictionaryGetValue(dictionary, key);
  }

  /** A new CFData holding a copy of `bytes`. */
  data(bytes: Uint8Array<ArrayBuffer>): Owned {
    return this.ownOrThrow(this.#fw.cf.CFDataCreate(null, bytes, BigInt(bytes.length)), "CFDataCreate");
  }

  /** A copy of a CFData's bytes, or null for another kind. */
  toBytes(ref: Deno.PointerValue): Uint8Array | null {
    if (ref === null || this.kind(ref) !== "data") return null;
    const length = Number(this.#fw.cf.CFDataGetLength(ref));
    const bytes = new Uint8Array(length);
    if (length) this.#fw.cf.CFDataGetBytes(ref, cfRange(0, length), bytes);
    return bytes;
  }

  /** A new file CFURL for an absolute path. */
  fileUrl(path: string, directory = false): Owned {
    const bytes = new TextEncoder().encode(path);
    return this.ownOrThrow(
      this.#fw.cf.CFURLCreateFromFileSystemRepresentation(null, bytes, BigInt(bytes.length), directory),
      "CFURLCreateFromFileSystemRepresentation",
    );
  }

  /** A new CFURL from an absolute URL string ("https://example.com/"). */
  url(text: string): Owned {
    const bytes = new TextEncoder().encode(text);
    return this.ownOrThrow(
      this.#fw.cf.CFURLCreateWithBytes(null, bytes, BigInt(bytes.length), kCFStringEncodingUTF8, null),
      "CFURLCreateWithBytes",
    );
  }

  /** The file-system path of a file CFURL, or null. */
  toPath(ref: Deno.PointerValue): string | null {
    if (ref === null || this.kind(ref) !== "url") return null;
    const buffer = new Uint8Array(4096);
    if (!this.#fw.cf.CFURLGetFileSystemRepresentation(ref, true, buffer, BigInt(buffer.length))) return null;
    const end = buffer.indexOf(0);
    return new TextDecoder().decode(buffer.subarray(0, end < 0 ? buffer.length : end));
  }

  /** Releases the interned constants. */
  close(): void {
    for (const owned of this.#interned.values()) owned.release();
    this.#interned.clear();
  }
}
