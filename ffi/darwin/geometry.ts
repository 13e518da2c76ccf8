/**
 * By-value structs of CoreGraphics and CoreFoundation, and their encoders.
 *
 * `CGFloat` is a `double` on both 64-bit Mac architectures (x86_64 and arm64), and
 * both are little-endian, so one layout serves both.
 *
 * @module
 */

/** struct CGPoint { CGFloat x @0; CGFloat y @8; } (16 bytes). */
export const CGPOINT = { struct: ["f64", "f64"] } as const;
/** struct CGSize { CGFloat width @0; CGFloat height @8; } (16 bytes). */
export const CGSIZE = { struct: ["f64", "f64"] } as const;
/** struct CGRect { CGPoint origin @0; CGSize size @16; } (32 bytes). */
export const CGRECT = { struct: ["f64", "f64", "f64", "f64"] } as const;
/** struct CFRange { CFIndex location @0; CFIndex length @8; } (16 bytes). */
export const CFRANGE = { struct: ["i64", "i64"] } as const;

/** Byte size of each struct above. */
export const STRUCT_SIZE = { CGPoint: 16, CGSize: 16, CGRect: 32, CFRange: 16 } as const;

function f64s(...values: number[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new Float64Array(values).buffer);
}

function readF64s(bytes: Uint8Array, count: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: count }, (_, i) => view.getFloat64(i * 8, true));
}

/** Encodes a CGPoint. */
export function cgPoint(x: number, y: number): Uint8Array<ArrayBuffer> {
  return f64s(x, y);
}

/** Encodes a CGSize. */
export function cgSize(width: number, height: number): Uint8Array<ArrayBuffer> {
  return f64s(width, height);
}

/** Encodes a CGRect. */
export function cgRect(x: number, y: number, width: number, height: number): Uint8Array<ArrayBuffer> {
  return f64s(x, y, width, height);
}

/** Decodes a CGPoint. */
export function readCGPoint(bytes: Uint8Array): { x: number; y: number } {
  const [x, y] = readF64s(bytes, 2);
  return { x, y };
}

/** Decodes a CGSize. */
export function readCGSize(bytes: Uint8Array): { width: number; height: number } {
  const [width, height] = readF64s(bytes, 2);
  return { width, height };
}

/** Decodes a CGRect. */
export function readCGRect(bytes: Uint8Array): { x: number; y: number; width: number; height: number } {
  const [x, y, width, height] = readF64s(bytes, 4);
  return { x, y, width, height };
}

/** Encodes a CFRange. */
export function cfRange(location: number, length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new BigInt64Array([BigInt(location), BigInt(length)]).buffer);
}

/** Decodes a CFRange. */
export function readCFRange(bytes: Uint8Array): { location: number; length: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { location: Number(view.getBigInt64(0, true)), length: Number(view.getBigInt64(8, true)) };
}

/** The null rectangle (CGRectNull: origin at +infinity), "the bounds of the windows captured". */
export const CG_RECT_NULL = cgRect(Infinity, Infinity, 0, 0);
