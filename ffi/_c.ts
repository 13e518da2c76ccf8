/**
 * C string and pointer helpers shared by every binding.
 *
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** NUL-terminated UTF-8 bytes of a string, for `"buffer"` parameters. */
export function cstr(text: string): Uint8Array<ArrayBuffer> {
  const bytes = encoder.encode(text);
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  return out;
}

/** NUL-terminated UTF-16LE bytes of a string (Windows wide strings). */
export function wstr(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array((text.length + 1) * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), true);
  return out;
}

/** Reads a NUL-terminated UTF-8 string; "" for a null pointer. */
export function readCString(pointer: Deno.PointerValue): string {
  if (!pointer) return "";
  return new Deno.UnsafePointerView(pointer).getCString();
}

/** Reads `length` bytes at a pointer into a fresh copy. */
export function readBytes(pointer: Deno.PointerObject, length: number, offset = 0): Uint8Array {
  if (length <= 0) return new Uint8Array(0);
  return new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, length, offset).slice(0));
}

/** Decodes UTF-8 bytes, stopping at the first NUL if any. */
export function decodeUtf8(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return decoder.decode(nul >= 0 ? bytes.subarray(0, nul) : bytes);
}

/** A pointer's address as a bigint (0n for null). */
export function address(pointer: Deno.PointerValue): bigint {
  return pointer ? BigInt(Deno.UnsafePointer.value(pointer)) : 0n;
}

/** Out-parameter cells for `"buffer"` arguments. */
export const out = {
  i32: () => new Int32Array(1),
  u32: () => new Uint32Array(1),
  u64: () => new BigUint64Array(1),
  ptr: () => new BigUint64Array(1),
};
