/**
 * Helpers shared by the Win32 bindings: wide strings, handles and the small structs
 * (RECT, POINT) that most calls take. Windows x64 only (LLP64: pointers and handles are
 * 8 bytes, `long` and `BOOL` are 4).
 *
 * @module
 */

/** A UTF-16 code-unit buffer for `LPWSTR` out-parameters, `length` units long. */
export function wideBuffer(length: number): Uint16Array<ArrayBuffer> {
  return new Uint16Array(length);
}

/** Decodes `length` UTF-16 units (or up to the first NUL when `length` is omitted). */
export function fromWide(units: Uint16Array, length?: number): string {
  let end = length ?? units.length;
  if (length === undefined) {
    const nul = units.indexOf(0);
    if (nul >= 0) end = nul;
  }
  let text = "";
  // Chunks keep String.fromCharCode's argument list small for long texts.
  for (let i = 0; i < end; i += 8192) {
    text += String.fromCharCode(...units.subarray(i, Math.min(end, i + 8192)));
  }
  return text;
}

/**
 * Reads a NUL-terminated UTF-16 string at a pointer ("" for null), at most `max` units.
 *
 * UNSAFE: the pointer must address readable memory up to the terminator.
 */
export function readWide(pointer: Deno.PointerValue, max = 1 << 20): string {
  if (!pointer) return "";
  const view = new Deno.UnsafePointerView(pointer);
  const units: number[] = [];
  for (let i = 0; i < max; i++) {
    const unit = view.getUint16(i * 2);
    if (unit === 0) break;
    units.push(unit);
  }
  return fromWide(Uint16Array.from(units));
}

/** Reads exactly `length` UTF-16 units at a pointer. UNSAFE: `length * 2` bytes must be readable. */
export function readWideLength(pointer: Deno.PointerObject, length: number): string {
  if (length <= 0) return "";
  return fromWide(new Uint16Array(Deno.UnsafePointerView.getArrayBuffer(pointer, length * 2).slice(0)));
}

/** The pointer for a handle value (HWND, HMONITOR, ...); null for 0. */
export function handle(value: number | bigint): Deno.PointerValue {
  const big = BigInt(value);
  return big === 0n ? null : Deno.UnsafePointer.create(BigInt.asUintN(64, big));
}

/** A handle's value as a number (handles fit in 32 bits of significance on Win64). */
export function handleValue(pointer: Deno.PointerValue): number {
  return pointer ? Number(Deno.UnsafePointer.value(pointer)) : 0;
}

/** A RECT as left, top, right, bottom. */
export interface Win32Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A RECT buffer (16 bytes: left@0 top@4 right@8 bottom@12). */
export function rectBuffer(): Int32Array<ArrayBuffer> {
  return new Int32Array(4);
}

/** Reads a RECT buffer. */
export function readRect(buffer: Int32Array): Win32Rect {
  return { left: buffer[0], top: buffer[1], right: buffer[2], bottom: buffer[3] };
}

/** A POINT passed by value in one 64-bit register: x in the low half, y in the high half. */
export function pointByValue(x: number, y: number): bigint {
  return BigInt.asUintN(32, BigInt(Math.round(x))) | (BigInt.asUintN(32, BigInt(Math.round(y))) << 32n);
}

/** Packs two 16-bit values into an LPARAM (MAKELPARAM), sign-preserving for coordinates. */
export function makeLParam(low: number, high: number): bigint {
  return BigInt(((high & 0xffff) << 16 | (low & 0xffff)) >>> 0);
}
