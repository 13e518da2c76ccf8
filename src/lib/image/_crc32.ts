/**
 * CRC-32 (ISO 3309, the PNG chunk checksum), native when the runtime offers it.
 *
 * @module
 */
import zlib from "node:zlib";

let table: Int32Array | null = null;

function crcTable(): Int32Array {
  if (table) return table;
  table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
}

/**
 * Table-driven CRC-32 in plain JS; the reference the native path is tested against.
 *
 * @param bytes Data to checksum.
 * @param previous CRC of the preceding data, to continue a running checksum.
 * @returns The CRC as an unsigned 32-bit number.
 */
export function crc32Js(bytes: Uint8Array, previous = 0): number {
  const t = crcTable();
  let c = ~previous;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

// Deno's node:zlib exposes zlib-ng's SIMD crc32 (Node >= 22.2 API): about 80x the JS table
// (0.05 ms vs 3.9 ms per MiB measured on the 2-core dev VM).
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/**
 * CRC-32 of `bytes`, continuing from `previous`.
 *
 * @param bytes Data to checksum.
 * @param previous CRC of the preceding data (0 to start).
 * @returns The CRC as an unsigned 32-bit number.
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  return typeof nativeCrc32 === "function" ? nativeCrc32(bytes, previous) >>> 0 : crc32Js(bytes, previous);
}
