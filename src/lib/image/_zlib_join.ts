/**
 * One zlib stream (RFC 1950) from raw deflate streams compressed independently, as pigz
 * joins its blocks: every part but the last ends with a sync flush (byte-aligned, no final
 * block), the last with the final block; the Adler-32 of the whole is combined from the
 * parts' own, so no byte is read twice.
 *
 * @module
 */

const BASE = 65521;

/**
 * The Adler-32 of `A + B` from the Adler-32s of A and B and B's length (zlib's
 * `adler32_combine`).
 */
export function adler32Combine(adlerA: number, adlerB: number, lengthB: number): number {
  const rem = lengthB % BASE;
  let sum1 = adlerA & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (adlerB & 0xffff) + BASE - 1;
  sum2 += (adlerA >>> 16) + (adlerB >>> 16) + BASE - rem;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum2 >= 2 * BASE) sum2 -= 2 * BASE;
  if (sum2 >= BASE) sum2 -= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** The two-byte zlib header for a 32 KiB window and `level`'s FLEVEL, as zlib writes it. */
export function zlibHeader(level: number): Uint8Array {
  const cmf = 0x78;
  const flevel = level < 2 ? 0 : level < 6 ? 1 : level === 6 ? 2 : 3;
  let flg = flevel << 6;
  flg += 31 - ((cmf * 256 + flg) % 31);
  return new Uint8Array([cmf, flg]);
}

/** One compressed part: raw deflate bytes and the Adler-32 and length of what they hold. */
export interface DeflatePart {
  deflated: Uint8Array;
  adler: number;
  length: number;
}

/**
 * Joins raw deflate parts, in order, into one zlib stream.
 *
 * @param parts Every part but the last ends byte-aligned without a final block (Z_SYNC_FLUSH);
 *   the last ends with the final block (Z_FINISH).
 * @param level The level the parts were compressed at (for the header's FLEVEL).
 */
export function joinDeflateParts(parts: readonly DeflatePart[], level: number): Uint8Array {
  let adler = 1;
  let size = 2 + 4;
  for (const part of parts) {
    adler = adler32Combine(adler, part.adler, part.length);
    size += part.deflated.length;
  }
  const out = new Uint8Array(size);
  out.set(zlibHeader(level), 0);
  let at = 2;
  for (const part of parts) {
    out.set(part.deflated, at);
    at += part.deflated.length;
  }
  new DataView(out.buffer).setUint32(at, adler);
  return out;
}
