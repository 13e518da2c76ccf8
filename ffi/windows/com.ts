/**
 * The COM base: calls through an interface's vtable with one cached
 * `Deno.UnsafeFnPointer` per (function, signature), the HRESULT choke point, GUIDs,
 * BSTRs, VARIANTs and SAFEARRAYs.
 *
 * Ownership: a {@linkcode ComObject} owns one reference to its interface pointer and
 * releases it on dispose; out-parameters returned by its helpers are +1 references the
 * caller wraps or releases.
 *
 * @module
 */
import { NativeError } from "../_errors.ts";
import { readWideLength } from "./_win.ts";
import { oleaut32, VARIANT_SIZE, VT } from "./oleaut32.ts";

/** HRESULT values the driver tells apart (as signed 32-bit numbers). */
export const HRESULT = {
  S_OK: 0,
  S_FALSE: 1,
  E_NOTIMPL: 0x80004001 | 0,
  E_NOINTERFACE: 0x80004002 | 0,
  E_POINTER: 0x80004003 | 0,
  E_FAIL: 0x80004005 | 0,
  E_ACCESSDENIED: 0x80070005 | 0,
  E_INVALIDARG: 0x80070057 | 0,
  RPC_E_CHANGED_MODE: 0x80010106 | 0,
  RPC_E_DISCONNECTED: 0x80010108 | 0,
  RPC_E_SERVER_DIED: 0x80010007 | 0,
  CO_E_OBJNOTCONNECTED: 0x800401fd | 0,
  UIA_E_ELEMENTNOTENABLED: 0x80040200 | 0,
  UIA_E_ELEMENTNOTAVAILABLE: 0x80040201 | 0,
  UIA_E_NOCLICKABLEPOINT: 0x80040202 | 0,
  UIA_E_PROXYASSEMBLYNOTLOADED: 0x80040203 | 0,
  UIA_E_NOTSUPPORTED: 0x80040204 | 0,
  UIA_E_INVALIDOPERATION: 0x80131509 | 0,
  UIA_E_TIMEOUT: 0x80131505 | 0,
} as const;

const HRESULT_NAMES = new Map<number, string>(Object.entries(HRESULT).map(([name, value]) => [value, name]));

/** An HRESULT as `0x80004001 (E_NOTIMPL)`. */
export function hresultText(hr: number): string {
  const hex = `0x${(hr >>> 0).toString(16).padStart(8, "0")}`;
  const name = HRESULT_NAMES.get(hr | 0);
  return name ? `${hex} (${name})` : hex;
}

/** True for a success HRESULT (S_OK, S_FALSE, ...). */
export function succeeded(hr: number): boolean {
  return (hr | 0) >= 0;
}

/**
 * The HRESULT choke point: returns `hr` when it is a success code, else throws a
 * {@linkcode NativeError} whose status is the HRESULT.
 *
 * @throws {NativeError} when `hr` is a failure code
 */
export function unwrapHRESULT(api: string, hr: number): number {
  if (succeeded(hr)) return hr;
  throw new NativeError(api, hr | 0, `HRESULT ${hresultText(hr)}`);
}

/** A GUID in its 16-byte memory layout, from `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
export function guid(text: string): Uint8Array<ArrayBuffer> {
  const hex = text.replace(/[{}-]/g, "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`Not a GUID: "${text}"`);
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, parseInt(hex.slice(0, 8), 16), true);
  view.setUint16(4, parseInt(hex.slice(8, 12), 16), true);
  view.setUint16(6, parseInt(hex.slice(12, 16), 16), true);
  for (let i = 0; i < 8; i++) bytes[8 + i] = parseInt(hex.slice(16 + i * 2, 18 + i * 2), 16);
  return bytes;
}

/** IID_IUnknown. */
export const IID_IUnknown = guid("00000000-0000-0000-C000-000000000046");

type Signature = { parameters: Deno.NativeType[]; result: Deno.NativeResultType };
const functionCache = new Map<string, Deno.UnsafeFnPointer<Deno.ForeignFunction>>();

/**
 * Calls slot `slot` of the vtable of interface `self` with `args` (self is prepended).
 *
 * UNSAFE: `self` must be a live interface pointer whose vtable has `slot` with exactly
 * this signature.
 */
export function vtableCall(
  self: Deno.PointerObject,
  slot: number,
  signature: Signature,
  args: readonly unknown[],
): unknown {
  const vtable = new Deno.UnsafePointerView(self).getPointer(0);
  if (!vtable) throw new TypeError("COM object has a null vtable");
  const fn = new Deno.UnsafePointerView(vtable).getPointer(slot * 8);
  if (!fn) throw new TypeError(`COM vtable slot ${slot} is null`);
  const key = `${Deno.UnsafePointer.value(fn)}|${signature.parameters.join(",")}|${signature.result}`;
  let pointer = functionCache.get(key);
  if (!pointer) {
    pointer = new Deno.UnsafeFnPointer(fn as Deno.PointerObject<Deno.ForeignFunction>, {
      parameters: ["pointer", ...signature.parameters],
      result: signature.result,
    } as Deno.ForeignFunction);
    functionCache.set(key, pointer);
  }
  return (pointer.call as (...a: unknown[]) => unknown)(self, ...args);
}

/** A pointer out-cell's value as a pointer (null for 0). */
export function pointerFrom(cell: BigUint64Array): Deno.PointerObject | null {
  return cell[0] === 0n ? null : Deno.UnsafePointer.create(cell[0]);
}

/** Releases one reference of a raw interface pointer (null is ignored). */
export function releasePointer(pointer: Deno.PointerValue): void {
  if (pointer) vtableCall(pointer, 2, { parameters: [], result: "u32" }, []);
}

/** Adds one reference to a raw interface pointer. */
export function addRefPointer(pointer: Deno.PointerObject): void {
  vtableCall(pointer, 1, { parameters: [], result: "u32" }, []);
}

/**
 * One COM interface reference. Subclasses declare typed methods over the protected
 * helpers; the object releases its reference when disposed (idempotent).
 */
export class ComObject implements Disposable {
  #pointer: Deno.PointerObject | null;

  /** Takes ownership of one reference to `pointer`. */
  constructor(pointer: Deno.PointerObject) {
    this.#pointer = pointer;
  }

  /** The interface pointer. @throws {TypeError} after release */
  get pointer(): Deno.PointerObject {
    if (!this.#pointer) throw new TypeError(`${this.constructor.name} used after release`);
    return this.#pointer;
  }

  /** True until released. */
  get alive(): boolean {
    return this.#pointer !== null;
  }

  /** Calls a slot and returns its raw result. */
  protected call(
    slot: number,
    parameters: Deno.NativeType[],
    args: unknown[],
    result: Deno.NativeResultType = "i32",
  ): unknown {
    return vtableCall(this.pointer, slot, { parameters, result }, args);
  }

  /** Calls an HRESULT method. @throws {NativeError} on a failure HRESULT */
  protected hr(api: string, slot: number, parameters: Deno.NativeType[] = [], args: unknown[] = []): number {
    return unwrapHRESULT(api, this.call(slot, parameters, args) as number);
  }

  /** Calls a method whose last parameter is an interface out-pointer; +1 reference or null. */
  protected outPointer(
    api: string,
    slot: number,
    parameters: Deno.NativeType[] = [],
    args: unknown[] = [],
  ): Deno.PointerObject | null {
    const cell = new BigUint64Array(1);
    this.hr(api, slot, [...parameters, "buffer"], [...args, cell]);
    return pointerFrom(cell);
  }

  /** Calls a method whose last parameter is an `int`/`BOOL`/enum out-value. */
  protected outI32(
    api: string,
    slot: number,
    parameters: Deno.NativeType[] = [],
    args: unknown[] = [],
  ): number {
    const cell = new Int32Array(2);
    this.hr(api, slot, [...parameters, "buffer"], [...args, cell]);
    return cell[0];
  }

  /** Calls a method whose last parameter is a `double` out-value. */
  protected outF64(api: string, slot: number): number {
    const cell = new Float64Array(1);
    this.hr(api, slot, ["buffer"], [cell]);
    return cell[0];
  }

  /** Calls a method whose last parameter is a BSTR out-value; frees the BSTR. */
  protected outBstr(
    api: string,
    slot: number,
    parameters: Deno.NativeType[] = [],
    args: unknown[] = [],
  ): string {
    const cell = new BigUint64Array(1);
    this.hr(api, slot, [...parameters, "buffer"], [...args, cell]);
    return takeBstr(pointerFrom(cell));
  }

  /** Calls a method whose last parameter is a VARIANT out-value; returns it decoded and cleared. */
  protected outVariant(
    api: string,
    slot: number,
    parameters: Deno.NativeType[] = [],
    args: unknown[] = [],
  ): VariantValue {
    const variant = new Uint8Array(VARIANT_SIZE);
    this.hr(api, slot, [...parameters, "buffer"], [...args, variant]);
    return takeVariant(variant);
  }

  /** QueryInterface: a +1 reference to `iid`, or null when the object does not implement it. */
  queryInterface(iid: Uint8Array<ArrayBuffer>): Deno.PointerObject | null {
    const cell = new BigUint64Array(1);
    const hr = this.call(0, ["buffer", "buffer"], [iid, cell]) as number;
    if (hr === HRESULT.E_NOINTERFACE) return null;
    unwrapHRESULT("QueryInterface", hr);
    return pointerFrom(cell);
  }

  /** Releases the reference (idempotent). */
  release(): void {
    const pointer = this.#pointer;
    this.#pointer = null;
    if (pointer) releasePointer(pointer);
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/** Reads a BSTR without freeing it ("" for null). UNSAFE: `bstr` must be a live BSTR. */
export function readBstr(bstr: Deno.PointerValue): string {
  if (!bstr) return "";
  return readWideLength(bstr, oleaut32.symbols.SysStringLen(bstr));
}

/** Reads and frees a BSTR the callee allocated. */
export function takeBstr(bstr: Deno.PointerValue): string {
  if (!bstr) return "";
  try {
    return readBstr(bstr);
  } finally {
    oleaut32.symbols.SysFreeString(bstr);
  }
}

/** A BSTR this process allocated, freed on dispose (for `[in] BSTR` parameters). */
export class Bstr implements Disposable {
  #pointer: Deno.PointerValue;
  constructor(text: string) {
    const units = new Uint16Array(text.length + 1);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    this.#pointer = oleaut32.symbols.SysAllocString(units);
  }
  /** The BSTR pointer. */
  get pointer(): Deno.PointerValue {
    return this.#pointer;
  }
  [Symbol.dispose](): void {
    if (this.#pointer) oleaut32.symbols.SysFreeString(this.#pointer);
    this.#pointer = null;
  }
}

/** A decoded VARIANT. Arrays come back as number arrays (VT_ARRAY of I4/R8). */
export type VariantValue =
  | { vt: "empty" }
  | { vt: "number"; value: number }
  | { vt: "bool"; value: boolean }
  | { vt: "string"; value: string }
  | { vt: "array"; value: number[] }
  | { vt: "unknown"; value: Deno.PointerObject | null }
  | { vt: "other"; type: number };

/**
 * Decodes a VARIANT buffer and clears it (frees its BSTR/array; interface values are
 * returned with the variant's reference, which the caller now owns).
 */
export function takeVariant(variant: Uint8Array<ArrayBuffer>): VariantValue {
  const view = new DataView(variant.buffer, variant.byteOffset, VARIANT_SIZE);
  const type = view.getUint16(0, true);
  switch (type) {
    case VT.EMPTY:
    case VT.NULL:
      return { vt: "empty" };
    case VT.I2:
      return { vt: "number", value: view.getInt16(8, true) };
    case VT.I4:
    case VT.INT:
    case VT.ERROR:
      return { vt: "number", value: view.getInt32(8, true) };
    case VT.UI4:
    case VT.UINT:
      return { vt: "number", value: view.getUint32(8, true) };
    case VT.R4:
      return { vt: "number", value: view.getFloat32(8, true) };
    case VT.R8:
      return { vt: "number", value: view.getFloat64(8, true) };
    case VT.BOOL:
      return { vt: "bool", value: view.getInt16(8, true) !== 0 };
    case VT.BSTR: {
      const text = readBstr(Deno.UnsafePointer.create(view.getBigUint64(8, true)));
      oleaut32.symbols.VariantClear(variant);
      return { vt: "string", value: text };
    }
    case VT.UNKNOWN:
    case VT.DISPATCH:
      // The reference moves to the caller: do not VariantClear.
      return { vt: "unknown", value: Deno.UnsafePointer.create(view.getBigUint64(8, true)) };
    case VT.ARRAY | VT.I4:
    case VT.ARRAY | VT.R8: {
      const array = Deno.UnsafePointer.create(view.getBigUint64(8, true));
      const value = readSafeArray(array, type & ~VT.ARRAY);
      oleaut32.symbols.VariantClear(variant);
      return { vt: "array", value };
    }
    default:
      oleaut32.symbols.VariantClear(variant);
      return { vt: "other", type };
  }
}

/** A VARIANT holding a VT_I4. */
export function variantI4(value: number): Uint8Array<ArrayBuffer> {
  const variant = new Uint8Array(VARIANT_SIZE);
  const view = new DataView(variant.buffer);
  view.setUint16(0, VT.I4, true);
  view.setInt32(8, value, true);
  return variant;
}

/** A VARIANT holding a VT_BOOL. */
export function variantBool(value: boolean): Uint8Array<ArrayBuffer> {
  const variant = new Uint8Array(VARIANT_SIZE);
  const view = new DataView(variant.buffer);
  view.setUint16(0, VT.BOOL, true);
  view.setInt16(8, value ? -1 : 0, true);
  return variant;
}

/** Reads a one-dimensional SAFEARRAY of VT_I4 or VT_R8 (null gives []). Does not destroy it. */
export function readSafeArray(array: Deno.PointerValue, elementType: number): number[] {
  if (!array) return [];
  const lower = new Int32Array(1);
  const upper = new Int32Array(1);
  unwrapHRESULT("SafeArrayGetLBound", oleaut32.symbols.SafeArrayGetLBound(array, 1, lower));
  unwrapHRESULT("SafeArrayGetUBound", oleaut32.symbols.SafeArrayGetUBound(array, 1, upper));
  const count = upper[0] - lower[0] + 1;
  if (count <= 0) return [];
  const cell = new BigUint64Array(1);
  unwrapHRESULT("SafeArrayAccessData", oleaut32.symbols.SafeArrayAccessData(array, cell));
  try {
    const data = pointerFrom(cell);
    if (!data) return [];
    const size = elementType === VT.R8 ? 8 : 4;
    const bytes = Deno.UnsafePointerView.getArrayBuffer(data, count * size).slice(0);
    return Array.from(elementType === VT.R8 ? new Float64Array(bytes) : new Int32Array(bytes));
  } finally {
    oleaut32.symbols.SafeArrayUnaccessData(array);
  }
}
