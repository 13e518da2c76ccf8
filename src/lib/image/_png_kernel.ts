/**
 * The PNG encoder's hot loops, written as ONE self-contained function so that the same
 * code runs on the main thread and in the encoder Worker: `png_worker.ts` turns
 * `pngKernel.toString()` into the Worker's script (a single bundled file or a `deno compile`
 * binary has no module file to hand a Worker).
 *
 * Rules for everything inside `pngKernel`: no imports, no reference to anything outside the
 * function, no TypeScript-only runtime constructs (enums, parameter properties, decorators) and
 * no private class fields, so that the transpiled text is valid, complete JavaScript on its own.
 *
 * The row filter reads pixels as little-endian 32-bit words through an Int32Array and does the
 * None, Sub and Up filters four bytes at a time (SWAR byte-wise subtraction), storing four RGB
 * pixels as three unaligned DataView words, and ANDs the words on the way so the caller learns
 * whether every alpha is 255 without a second pass. None and Up run in WebAssembly SIMD
 * (`_png_simd.ts`) when the runtime has it; this code does Sub and is the fallback. Words are
 * either RGBA (0xAABBGGRR) or, straight from an X server's 32-bit ZPixmap, BGRX (0xXXRRGGBB):
 * the byte-wise difference of two BGRX words is the BGRX of the difference, so swapping bytes 0
 * and 2 of the result yields the filtered RGB without a BGRX-to-RGBA pass.
 *
 * @module
 */

/** Pixel word layout: "rgba" (0xAABBGGRR) or "bgrx" (0xXXRRGGBB, always encoded as opaque RGB). */
export type PixelFormat = "rgba" | "bgrx";

/** The kernel's functions; see {@linkcode pngKernel}. */
export type PngKernel = ReturnType<typeof pngKernel>;

/**
 * Builds the kernel. Self-contained: its source text is the Worker's code.
 *
 * @returns `diffRow`, `filterRows` (None, Sub, Up on words), `adler32`, `pngFile` (chunk
 *   assembly) and `checkSize`.
 */
export function pngKernel() {
  const HIGH = 0x80808080 | 0;
  const LOW = 0x7f7f7f7f;

  /**
   * Writes `(words[p + x] - prev[q + x])` byte-wise for `x < width` into `view` at byte `o`:
   * RGB (alpha dropped) when `bpp` is 3, RGBA when 4; `bgrx` words (bpp 3 only) come out as RGB.
   * Returns the AND of the source words, so `(result >> 24) === -1` iff all alphas are 255
   * (always -1 for BGRX).
   */
  function diffRow(
    words: Int32Array,
    p: number,
    prev: Int32Array,
    q: number,
    width: number,
    bpp: number,
    bgrx: boolean,
    view: DataView,
    o: number,
  ): number {
    if (bgrx) return diffRowBgrx(words, p, prev, q, width, view, o);
    let alpha = -1;
    if (bpp === 4) {
      for (let x = 0; x < width; x++, o += 4) {
        const a = words[p + x], b = prev[q + x];
        alpha &= a;
        view.setInt32(o, ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH), true);
      }
      return alpha;
    }
    const groups = width & ~3;
    let x = 0;
    for (; x < groups; x += 4, o += 12) {
      let a = words[p + x], b = prev[q + x];
      alpha &= a;
      const d0 = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      a = words[p + x + 1], b = prev[q + x + 1];
      alpha &= a;
      const d1 = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      a = words[p + x + 2], b = prev[q + x + 2];
      alpha &= a;
      const d2 = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      a = words[p + x + 3], b = prev[q + x + 3];
      alpha &= a;
      const d3 = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      // R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3, unaligned little-endian stores.
      view.setInt32(o, (d0 & 0xffffff) | (d1 << 24), true);
      view.setInt32(o + 4, ((d1 >>> 8) & 0xffff) | (d2 << 16), true);
      view.setInt32(o + 8, ((d2 >>> 16) & 0xff) | (d3 << 8), true);
    }
    for (; x < width; x++, o += 3) {
      const a = words[p + x], b = prev[q + x];
      alpha &= a;
      const d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      view.setUint16(o, d, true);
      view.setUint8(o + 2, d >>> 16);
    }
    return alpha;
  }

  /** {@linkcode diffRow} for BGRX words: the same SWAR difference, bytes 0 and 2 swapped on output. */
  function diffRowBgrx(
    words: Int32Array,
    p: number,
    prev: Int32Array,
    q: number,
    width: number,
    view: DataView,
    o: number,
  ): number {
    const groups = width & ~3;
    let x = 0;
    for (; x < groups; x += 4, o += 12) {
      let a = words[p + x], b = prev[q + x];
      let d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      const d0 = ((d >>> 16) & 0xff) | (d & 0xff00) | ((d & 0xff) << 16);
      a = words[p + x + 1], b = prev[q + x + 1];
      d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      const d1 = ((d >>> 16) & 0xff) | (d & 0xff00) | ((d & 0xff) << 16);
      a = words[p + x + 2], b = prev[q + x + 2];
      d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      const d2 = ((d >>> 16) & 0xff) | (d & 0xff00) | ((d & 0xff) << 16);
      a = words[p + x + 3], b = prev[q + x + 3];
      d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      const d3 = ((d >>> 16) & 0xff) | (d & 0xff00) | ((d & 0xff) << 16);
      view.setInt32(o, d0 | (d1 << 24), true);
      view.setInt32(o + 4, (d1 >>> 8) | (d2 << 16), true);
      view.setInt32(o + 8, (d2 >>> 16) | (d3 << 8), true);
    }
    for (; x < width; x++, o += 3) {
      const a = words[p + x], b = prev[q + x];
      const d = ((a | HIGH) - (b & LOW)) ^ ((a ^ ~b) & HIGH);
      view.setUint8(o, d >>> 16);
      view.setUint16(o + 1, ((d >>> 8) & 0xff) | ((d & 0xff) << 8), true);
    }
    return -1;
  }

  /**
   * Filters rows `y0` to `y1 - 1` of `words` with None (0), Sub (1) or Up (2) into `out`, each
   * row a filter-type byte and `width * bpp` bytes.
   *
   * @param scratch `zeros` and `left`: two Int32Arrays of `width` words; `zeros` stays all zero.
   * @returns The AND of the rows' source words: `(result >> 24) === -1` iff they are all opaque.
   */
  function filterRows(
    words: Int32Array,
    width: number,
    bpp: 3 | 4,
    bgrx: boolean,
    type: 0 | 1 | 2,
    y0: number,
    y1: number,
    out: Uint8Array,
    scratch: { zeros: Int32Array; left: Int32Array },
  ): number {
    const stride = 1 + width * bpp;
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    let alpha = -1;
    for (let y = y0; y < y1; y++) {
      const p = y * width, o = (y - y0) * stride;
      out[o] = type;
      if (type === 2 && y > 0) {
        alpha &= diffRow(words, p, words, p - width, width, bpp, bgrx, view, o + 1);
      } else if (type === 1) {
        scratch.left.set(words.subarray(p, p + width - 1), 1);
        alpha &= diffRow(words, p, scratch.left, 0, width, bpp, bgrx, view, o + 1);
      } else {
        alpha &= diffRow(words, p, scratch.zeros, 0, width, bpp, bgrx, view, o + 1);
      }
    }
    return alpha;
  }

  /**
   * Assembles a PNG file: signature, IHDR (8-bit, colour type 2 for bpp 3, 6 for bpp 4), one
   * IDAT per `idat` part, IEND.
   *
   * @param crc32 CRC-32 of a byte range (unsigned).
   */
  function pngFile(
    width: number,
    height: number,
    bpp: 3 | 4,
    idat: Uint8Array[],
    crc32: (bytes: Uint8Array) => number,
  ): Uint8Array {
    const ihdr = new Uint8Array(13);
    const header = new DataView(ihdr.buffer);
    header.setUint32(0, width);
    header.setUint32(4, height);
    ihdr.set([8, bpp === 3 ? 2 : 6, 0, 0, 0], 8); // depth, colour type, compression, filter, interlace
    const chunks: [string, Uint8Array][] = [["IHDR", ihdr]];
    for (const part of idat) chunks.push(["IDAT", part]);
    chunks.push(["IEND", new Uint8Array(0)]);
    let size = 8;
    for (const [, data] of chunks) size += 12 + data.length;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let at = 8;
    for (const [type, data] of chunks) {
      view.setUint32(at, data.length);
      for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
      out.set(data, at + 8);
      view.setUint32(at + 8 + data.length, crc32(out.subarray(at + 4, at + 8 + data.length)));
      at += 12 + data.length;
    }
    return out;
  }

  /**
   * Checks an image's size against its data length.
   *
   * @throws {RangeError} if the size is not positive or does not match the data.
   */
  function checkSize(width: number, height: number, length: number): void {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new RangeError(
        `Cannot encode a ${width}x${height} image: width and height must be positive integers`,
      );
    }
    if (length !== width * height * 4) {
      throw new RangeError(
        `Cannot encode a ${width}x${height} image from ${length} bytes: expected ${width * height * 4}`,
      );
    }
  }

  /**
   * Adler-32 of `bytes`, continuing from `adler` (1 for a new stream): zlib's checksum, which a
   * PNG's image data ends with. Sums are reduced every 2048 bytes, so they stay int32.
   */
  function adler32(bytes: Uint8Array, adler = 1): number {
    let a = adler & 0xffff, b = adler >>> 16;
    const n = bytes.length;
    for (let i = 0; i < n;) {
      const end = Math.min(i + 2048, n);
      for (; i < end; i++) {
        a += bytes[i];
        b += a;
      }
      a %= 65521;
      b %= 65521;
    }
    return ((b << 16) | a) >>> 0;
  }

  return { adler32, checkSize, diffRow, filterRows, pngFile };
}
