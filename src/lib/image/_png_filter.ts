/**
 * PNG scanline filters (RFC 2083 section 6): RGBA words to filtered RGB/RGBA rows for the
 * encoder, and the inverse for the decoder.
 *
 * None, Sub and Up run in the word-wise kernel shared with the encoder Worker (see
 * `_png_kernel.ts` for how and what it measured). Paeth, Average and the adaptive heuristic go
 * byte by byte here and are several times slower.
 *
 * @module
 */
import { pngKernel } from "./_png_kernel.ts";

/** Filter choice for the encoder; "adaptive" is libpng's minimum-sum-of-absolute-values pick per row. */
export type PngFilter = "none" | "sub" | "up" | "paeth" | "adaptive";

const FILTER_TYPE = { none: 0, sub: 1, up: 2, average: 3, paeth: 4 } as const;

const { diffRow, filterRows } = pngKernel();

/** Turns rows of RGBA words into filtered PNG scanlines, band by band. */
export class PngRowFilter {
  readonly #words: Int32Array;
  readonly #width: number;
  readonly #bpp: 3 | 4;
  readonly #filter: PngFilter;
  readonly #bgrx: boolean;
  readonly #zeros: Int32Array;
  readonly #left: Int32Array;
  // Byte-path scratch (paeth, adaptive): raw current and previous rows, and candidates.
  #cur: Uint8Array | null = null;
  #prev: Uint8Array | null = null;
  #candidates: Uint8Array[] = [];

  /**
   * @param words Pixels as little-endian RGBA words (0xAABBGGRR), row after row, or BGRX words
   *   (0xXXRRGGBB) when `bgrx` is set.
   * @param width Pixels per row.
   * @param bpp 3 to emit RGB (alpha dropped), 4 for RGBA; BGRX words need 3.
   * @param filter Which filter to apply.
   * @param bgrx The words are BGRX, read as opaque.
   */
  constructor(words: Int32Array, width: number, bpp: 3 | 4, filter: PngFilter, bgrx = false) {
    if (bgrx && bpp !== 3) throw new RangeError("BGRX pixels are encoded as RGB (bpp 3)");
    this.#words = words;
    this.#width = width;
    this.#bpp = bpp;
    this.#filter = filter;
    this.#bgrx = bgrx;
    this.#zeros = new Int32Array(width);
    this.#left = new Int32Array(width);
  }

  /** Bytes per pixel in the output: 3 (RGB) or 4 (RGBA). */
  get bpp(): 3 | 4 {
    return this.#bpp;
  }

  /** Bytes per filtered scanline, filter-type byte included. */
  get stride(): number {
    return 1 + this.#width * this.#bpp;
  }

  /**
   * Filters rows `y0` to `y1 - 1` into `out` (at least `(y1 - y0) * stride` bytes).
   *
   * @param y0 First row.
   * @param y1 Row after the last.
   * @param out Destination.
   * @returns The AND of the rows' source words: `(result >> 24) === -1` iff they are all opaque.
   */
  filterRows(y0: number, y1: number, out: Uint8Array): number {
    const filter = this.#filter;
    if (filter === "paeth" || filter === "adaptive") return this.#filterBytewise(y0, y1, out);
    return filterRows(this.#words, this.#width, this.#bpp, this.#bgrx, FILTER_TYPE[filter], y0, y1, out, {
      zeros: this.#zeros,
      left: this.#left,
    });
  }

  #rawRow(y: number, into: Uint8Array): number {
    if (y < 0) {
      into.fill(0);
      return -1;
    }
    const w = this.#width, view = new DataView(into.buffer, into.byteOffset, into.byteLength);
    return diffRow(this.#words, y * w, this.#zeros, 0, w, this.#bpp, this.#bgrx, view, 0);
  }

  #filterBytewise(y0: number, y1: number, out: Uint8Array): number {
    const n = this.#width * this.#bpp, bpp = this.#bpp, stride = n + 1;
    if (!this.#cur || !this.#prev) {
      this.#cur = new Uint8Array(n);
      this.#prev = new Uint8Array(n);
      this.#candidates = Array.from({ length: 5 }, () => new Uint8Array(n));
    }
    let cur = this.#cur, prev = this.#prev, alpha = -1;
    this.#rawRow(y0 - 1, prev);
    for (let y = y0; y < y1; y++) {
      alpha &= this.#rawRow(y, cur);
      const o = (y - y0) * stride;
      if (this.#filter === "paeth") {
        out[o] = FILTER_TYPE.paeth;
        paethRow(cur, prev, bpp, out, o + 1);
      } else {
        const [none, sub, up, average, paeth] = this.#candidates;
        none.set(cur);
        for (let i = 0; i < n; i++) {
          const a = i >= bpp ? cur[i - bpp] : 0;
          sub[i] = cur[i] - a;
          up[i] = cur[i] - prev[i];
          average[i] = cur[i] - ((a + prev[i]) >> 1);
        }
        paethRow(cur, prev, bpp, paeth, 0);
        let best = 0, bestSum = Infinity;
        for (let f = 0; f < 5; f++) {
          const c = this.#candidates[f];
          let sum = 0;
          for (let i = 0; i < n && sum < bestSum; i++) sum += c[i] < 128 ? c[i] : 256 - c[i];
          if (sum < bestSum) bestSum = sum, best = f;
        }
        out[o] = best;
        out.set(this.#candidates[best], o + 1);
      }
      [cur, prev] = [prev, cur];
    }
    this.#cur = cur;
    this.#prev = prev;
    return alpha;
  }
}

function paethRow(cur: Uint8Array, prev: Uint8Array, bpp: number, out: Uint8Array, at: number): void {
  const n = cur.length;
  for (let i = 0; i < bpp; i++) out[at + i] = cur[i] - prev[i];
  for (let i = bpp; i < n; i++) {
    const a = cur[i - bpp], b = prev[i], c = prev[i - bpp];
    const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - c - c);
    out[at + i] = cur[i] - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
  }
}

/**
 * Reverses the five PNG filters in place of a decoder.
 *
 * @param data Decompressed scanlines, each a filter-type byte and `width * bpp` bytes.
 * @param width Pixels per row.
 * @param height Rows.
 * @param bpp Bytes per pixel (3 or 4).
 * @returns The raw pixel rows, tightly packed.
 * @throws {TypeError} on a truncated stream or an unknown filter type.
 */
export function unfilterRows(data: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const n = width * bpp, stride = n + 1;
  if (data.length < height * stride) {
    throw new TypeError(`Invalid PNG: image data has ${data.length} bytes, expected ${height * stride}`);
  }
  const raw = new Uint8Array(height * n);
  for (let y = 0; y < height; y++) {
    const s = y * stride + 1, r = y * n, u = r - n; // u: previous raw row
    const type = data[s - 1];
    switch (type) {
      case 0:
        raw.set(data.subarray(s, s + n), r);
        break;
      case 1:
        for (let i = 0; i < n; i++) raw[r + i] = data[s + i] + (i >= bpp ? raw[r + i - bpp] : 0);
        break;
      case 2:
        if (y === 0) raw.set(data.subarray(s, s + n), r);
        else for (let i = 0; i < n; i++) raw[r + i] = data[s + i] + raw[u + i];
        break;
      case 3:
        for (let i = 0; i < n; i++) {
          const a = i >= bpp ? raw[r + i - bpp] : 0, b = y > 0 ? raw[u + i] : 0;
          raw[r + i] = data[s + i] + ((a + b) >> 1);
        }
        break;
      case 4:
        for (let i = 0; i < n; i++) {
          const a = i >= bpp ? raw[r + i - bpp] : 0, b = y > 0 ? raw[u + i] : 0;
          const c = i >= bpp && y > 0 ? raw[u + i - bpp] : 0;
          const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - c - c);
          raw[r + i] = data[s + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        }
        break;
      default:
        throw new TypeError(`Invalid PNG: unknown filter type ${type} on row ${y}`);
    }
  }
  return raw;
}
