/**
 * The PNG None and Up filters over a whole image in WebAssembly SIMD, for the encoder Worker
 * and the in-thread encoder. Self-contained like `_png_kernel.ts` (its text is part of the
 * Worker's script): no imports, nothing from outside the function. One 16-byte load takes four
 * pixels, `i8x16.sub` subtracts the row above (Up) or zeros (None), and one `i8x16.swizzle` drops
 * alpha (RGB), swaps B and R as well (BGRX captures) or keeps all four bytes (RGBA). Output is
 * byte-identical to the JS filter (timings: bench/results.md, "Design measurements").
 *
 * The module is assembled here from the listing below (285 bytes), so there is no opaque blob:
 *
 * ```wat
 * (func (export "filter") (param $src $prev0 $w $h $dst $type $bpp i32) (result i32)
 *   ;; rowBytes = w*4; outRow = w*bpp; acc = all ones; mask = v128.load(0)
 *   ;; for each row: store8(d, type); for g in 0, 16, ... < rowBytes:
 *   ;;     a = load(srcRow+g); acc &= a
 *   ;;     store(o, swizzle(sub(a, load(prevRow+g)), mask)); o += bpp*4
 *   ;;   d += 1 + outRow; prevRow = type ? srcRow : prev0; srcRow += rowBytes
 *   ;; return AND of acc's four i32 lanes
 * )
 * ```
 *
 * Each 16-byte store writes up to 4 bytes past its 12 (RGB): the next store, the next row's
 * filter-type byte (written after) or 16 bytes of slack after the output cover them. The last
 * group of a row may read up to 3 pixels past the row: pixels of the next row, or 16 bytes of
 * 0xff slack after the image, so the alpha AND stays exact.
 *
 * @module
 */

/** The WebAssembly filter; see {@linkcode pngSimd}. */
export type PngSimd = NonNullable<ReturnType<typeof pngSimd>>;

/**
 * Builds the WebAssembly filter. Self-contained: its source text is part of the Worker's code.
 *
 * @returns `filterImage`, or null when this runtime has no WebAssembly SIMD.
 */
export function pngSimd() {
  const uleb = (n: number): number[] => {
    const out: number[] = [];
    do {
      const byte = n & 0x7f;
      n >>>= 7;
      out.push(n ? byte | 0x80 : byte);
    } while (n);
    return out;
  };
  const sleb = (n: number): number[] => {
    const out: number[] = [];
    for (;;) {
      const byte = n & 0x7f;
      n >>= 7;
      if ((n === 0 && !(byte & 0x40)) || (n === -1 && (byte & 0x40))) return [...out, byte];
      out.push(byte | 0x80);
    }
  };
  const name = (s: string) => [...uleb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))];
  const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
  const I32 = 0x7f, V128 = 0x7b;
  const get = (i: number) => [0x20, i];
  const set = (i: number) => [0x21, i];
  const i32 = (n: number) => [0x41, ...sleb(n)];
  const simd = (op: number) => [0xfd, ...uleb(op)];
  const memarg = [0, 0]; // align 1, offset 0
  // SIMD opcodes (after the 0xfd prefix), then core opcodes.
  const LOAD = 0x00, STORE = 0x0b, CONST = 0x0c, SWIZZLE = 0x0e, EXTRACT_I32 = 0x1b, AND = 0x4e;
  const SUB_I8 = 0x71;
  const ADD = 0x6a, MUL = 0x6c, SHL = 0x74, I32_AND = 0x71, GE_U = 0x4f, STORE8 = 0x3a, SELECT = 0x1b;
  const BLOCK = [0x02, 0x40], LOOP = [0x03, 0x40], END = 0x0b, BR = 0x0c, BR_IF = 0x0d;
  // Parameters 0-6, then i32 locals 7-14, then v128 locals 15-17.
  const [src, prev0, w, h, dst, type, bpp, y, g, rowBytes, outRow, srcRow, prevRow, d, o, a, acc, mask] = [
    ...Array(18).keys(),
  ];
  // deno-fmt-ignore
  const code = [
    ...get(w), ...i32(2), SHL, ...set(rowBytes),
    ...get(w), ...get(bpp), MUL, ...set(outRow),
    ...simd(CONST), ...Array(16).fill(0xff), ...set(acc),
    ...i32(0), ...simd(LOAD), ...memarg, ...set(mask),
    ...get(src), ...set(srcRow), ...get(prev0), ...set(prevRow), ...get(dst), ...set(d), ...i32(0), ...set(y),
    ...BLOCK, ...LOOP, // rows
    ...get(y), ...get(h), GE_U, BR_IF, 1,
    ...get(d), ...get(type), STORE8, 0, 0,
    ...get(d), ...i32(1), ADD, ...set(o), ...i32(0), ...set(g),
    ...BLOCK, ...LOOP, // groups of four pixels
    ...get(g), ...get(rowBytes), GE_U, BR_IF, 1,
    ...get(srcRow), ...get(g), ADD, ...simd(LOAD), ...memarg, ...set(a),
    ...get(acc), ...get(a), ...simd(AND), ...set(acc),
    ...get(o), ...get(a), ...get(prevRow), ...get(g), ADD, ...simd(LOAD), ...memarg, ...simd(SUB_I8),
    ...get(mask), ...simd(SWIZZLE), ...simd(STORE), ...memarg,
    ...get(o), ...get(bpp), ...i32(2), SHL, ADD, ...set(o),
    ...get(g), ...i32(16), ADD, ...set(g),
    BR, 0, END, END,
    ...get(d), ...get(outRow), ADD, ...i32(1), ADD, ...set(d),
    ...get(srcRow), ...get(prev0), ...get(type), SELECT, ...set(prevRow),
    ...get(srcRow), ...get(rowBytes), ADD, ...set(srcRow),
    ...get(y), ...i32(1), ADD, ...set(y),
    BR, 0, END, END,
    ...get(acc), ...simd(EXTRACT_I32), 0, ...get(acc), ...simd(EXTRACT_I32), 1, I32_AND,
    ...get(acc), ...simd(EXTRACT_I32), 2, I32_AND, ...get(acc), ...simd(EXTRACT_I32), 3, I32_AND,
    END,
  ];
  const body = [2, 8, I32, 3, V128, ...code];

  // adler(ptr, blocks, out): the Adler-32 sums of `blocks` 16-byte blocks at ptr, as three
  // i32x4 stored at out: byte sums (s1), weighted sums (each block's bytes times 16..1) and
  // the sum of the byte sums before each block; the caller folds them into s1 and s2.
  const EXTADD_U8 = 0x7d, EXTADD_U16 = 0x7f, EXTMUL_LOW_U8 = 0x9e, EXTMUL_HIGH_U8 = 0x9f, ADD_I32X4 = 0xae;
  const [ptr, blocks, out, i, v, vs1, vs2, vs10, weights] = [...Array(9).keys()];
  // deno-fmt-ignore
  const adlerCode = [
    ...simd(CONST), ...Array.from({ length: 16 }, (_, k) => 16 - k), ...set(weights),
    ...BLOCK, ...LOOP,
    ...get(i), ...get(blocks), GE_U, BR_IF, 1,
    ...get(vs10), ...get(vs1), ...simd(ADD_I32X4), ...set(vs10),
    ...get(ptr), ...simd(LOAD), ...memarg, ...set(v),
    ...get(vs1), ...get(v), ...simd(EXTADD_U8), ...simd(EXTADD_U16), ...simd(ADD_I32X4), ...set(vs1),
    ...get(vs2), ...get(v), ...get(weights), ...simd(EXTMUL_LOW_U8), ...simd(EXTADD_U16), ...simd(ADD_I32X4),
    ...get(v), ...get(weights), ...simd(EXTMUL_HIGH_U8), ...simd(EXTADD_U16), ...simd(ADD_I32X4), ...set(vs2),
    ...get(ptr), ...i32(16), ADD, ...set(ptr),
    ...get(i), ...i32(1), ADD, ...set(i),
    BR, 0, END, END,
    ...get(out), ...get(vs1), ...simd(STORE), ...memarg,
    ...get(out), ...i32(16), ADD, ...get(vs2), ...simd(STORE), ...memarg,
    ...get(out), ...i32(32), ADD, ...get(vs10), ...simd(STORE), ...memarg,
    END,
  ];
  const adlerBody = [2, 1, I32, 5, V128, ...adlerCode];
  const bytes = new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    // types: 0 = (7 x i32) -> i32 (filter), 1 = (3 x i32) -> () (adler)
    ...section(1, [2, 0x60, 7, I32, I32, I32, I32, I32, I32, I32, 1, I32, 0x60, 3, I32, I32, I32, 0]),
    ...section(3, [2, 0, 1]), // two functions, of types 0 and 1
    ...section(5, [1, 0, 1]), // one memory, at least one page
    ...section(7, [3, ...name("filter"), 0, 0, ...name("adler"), 0, 1, ...name("memory"), 2, 0]),
    ...section(10, [2, ...uleb(body.length), ...body, ...uleb(adlerBody.length), ...adlerBody]),
  ]);

  type Filter = (
    src: number,
    prev0: number,
    w: number,
    h: number,
    dst: number,
    t: number,
    bpp: number,
  ) => number;
  let exports: {
    filter: Filter;
    adler: (ptr: number, blocks: number, out: number) => void;
    memory: WebAssembly.Memory;
  };
  try {
    if (typeof WebAssembly !== "object" || !WebAssembly.validate(bytes)) return null;
    exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as typeof exports;
  } catch {
    return null;
  }
  const { filter, adler, memory } = exports;

  // Swizzle masks: lane indices >= 16 give 0.
  const RGB = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80];
  const BGR = [2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 0x80, 0x80, 0x80, 0x80];
  const RGBA = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

  /**
   * Filters a whole image with None (type 0) or Up (type 2): RGB when every pixel is opaque
   * (or the pixels are BGRX), else RGBA; `rgba` asks for RGBA whatever the pixels.
   *
   * @param pixels `width * height` RGBA or BGRX pixels.
   * @returns The filtered scanlines (a view of the module's memory, valid until the next call)
   *   and the bytes per pixel they hold.
   */
  function filterImage(
    pixels: Uint8Array,
    width: number,
    height: number,
    bgrx: boolean,
    type: 0 | 2,
    rgba = false,
  ): { rows: Uint8Array; bpp: 3 | 4 } {
    const rowBytes = width * 4;
    const zeroRow = 16, source = zeroRow + rowBytes + 16, output = source + pixels.length + 16;
    const end = output + (1 + rowBytes) * height + 16;
    if (memory.buffer.byteLength < end) memory.grow(Math.ceil((end - memory.buffer.byteLength) / 65536));
    const heap = new Uint8Array(memory.buffer);
    heap.fill(0, zeroRow, source);
    heap.set(pixels, source);
    heap.fill(0xff, source + pixels.length, output);
    if (bgrx || !rgba) {
      heap.set(bgrx ? BGR : RGB, 0);
      const alpha = filter(source, zeroRow, width, height, output, type, 3);
      if (bgrx || alpha >> 24 === -1) {
        return { rows: heap.subarray(output, output + (1 + width * 3) * height), bpp: 3 };
      }
    }
    heap.set(RGBA, 0);
    filter(source, zeroRow, width, height, output, type, 4);
    return { rows: heap.subarray(output, output + (1 + rowBytes) * height), bpp: 4 };
  }

  /**
   * Adler-32 of `bytes` continuing from `start` (1 for a new stream). Bytes held by this
   * module's memory past its first 64 bytes (the `rows` of {@linkcode filterImage}) are summed
   * where they are; others are copied in first. The sums come back through bytes 16-63 (the
   * filter's zero row, which it refills on every call) and are folded every 5552 bytes (zlib's
   * NMAX), so no lane overflows.
   */
  function adler32(bytes: Uint8Array, start = 1): number {
    const BASE = 65521, NMAX_BLOCKS = 347, OUT = 16;
    let at = bytes.byteOffset;
    if (bytes.buffer !== memory.buffer || at < 64) {
      const need = 64 + bytes.length;
      if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
      new Uint8Array(memory.buffer).set(bytes, 64);
      at = 64;
    }
    let a = start & 0xffff, b = start >>> 16;
    let left = bytes.length;
    while (left >= 16) {
      const n = Math.min(left >> 4, NMAX_BLOCKS);
      adler(at, n, OUT);
      const sums = new Uint32Array(memory.buffer, OUT, 12);
      const s1 = sums[0] + sums[1] + sums[2] + sums[3];
      const weighted = sums[4] + sums[5] + sums[6] + sums[7];
      const before = sums[8] + sums[9] + sums[10] + sums[11];
      b = (b + n * 16 * a + 16 * before + weighted) % BASE;
      a = (a + s1) % BASE;
      at += n * 16;
      left -= n * 16;
    }
    const heap = new Uint8Array(memory.buffer);
    for (; left > 0; left--) {
      a = (a + heap[at++]) % BASE;
      b = (b + a) % BASE;
    }
    return ((b << 16) | a) >>> 0;
  }

  return { filterImage, adler32 };
}
