/**
 * PNG encoding and decoding for screenshots: filter Up on every row, zlib-ng level 2 with the
 * default strategy, deflated in bands of about 1 MiB with a yield between them (Deno's node:zlib
 * `deflate` callback runs on the main thread, so one call would stall the event loop).
 * {@linkcode encodePng} is the in-thread encoder and the Workers' fallback; screenshots go through
 * `encodePngOffThread` (png_worker.ts). None and Up run in WebAssembly SIMD when the runtime has it
 * (`_png_simd.ts`), `_png_filter.ts` does the rest; BGRX captures (bgrx_image.ts) are filtered as
 * they are. Why these choices: bench/results.md, "Design measurements".
 *
 * @module
 */
import { setImmediate } from "node:timers";
import zlib from "node:zlib";
import type { RawImage } from "../../ports/screen.ts";
import { crc32 } from "./_crc32.ts";
import { type PngFilter, PngRowFilter, unfilterRows } from "./_png_filter.ts";
import { pngKernel } from "./_png_kernel.ts";
import { type PngSimd, pngSimd } from "./_png_simd.ts";
import { peekBgrx } from "./bgrx_image.ts";

export type { PngFilter } from "./_png_filter.ts";

/** Options for {@linkcode encodePng}. */
export interface EncodePngOptions {
  /** zlib level 0-9; default 2 (see the module notes for the measurements). */
  level?: number;
  /** Scanline filter; default "up". */
  filter?: PngFilter;
  /** zlib strategy (`zlib.constants.Z_DEFAULT_STRATEGY`, `Z_FILTERED`, `Z_RLE`, ...). */
  strategy?: number;
}

/** The default zlib level: the measured best speed/size trade-off for screenshots. */
export const DEFAULT_PNG_LEVEL = 2;

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BAND_BYTES = 1 << 20;
const ZLIB_CHUNK = 1 << 18;
const { checkSize, pngFile } = pngKernel();

/**
 * Encodes tightly packed RGBA as an 8-bit, non-interlaced PNG: colour type 2 (RGB) when
 * every pixel is opaque, else type 6 (RGBA). An image from `bgrxImage` whose `data` has not
 * been read is encoded from its BGRX bytes (as opaque RGB) without converting it.
 *
 * @param image Pixels; `data.length` must be `width * height * 4`.
 * @param options zlib level, filter and strategy.
 * @returns The PNG file bytes.
 * @throws {RangeError} if the size is not positive or does not match the data.
 * @example
 * ```ts
 * const red = { width: 1, height: 1, data: new Uint8Array([255, 0, 0, 255]) };
 * const filter: PngFilter = "up";
 * const options: EncodePngOptions = { level: DEFAULT_PNG_LEVEL, filter }; // the defaults
 * const png = await encodePng(red, options);
 * console.log(decodePng(png).data); // Uint8Array [255, 0, 0, 255]
 * ```
 */
export async function encodePng(image: RawImage, options: EncodePngOptions = {}): Promise<Uint8Array> {
  const { width, height } = image;
  const bgrx = peekBgrx(image);
  const pixels = bgrx ?? image.data;
  checkSize(width, height, pixels.length);
  const filter = options.filter ?? "up";
  const zlibOptions = {
    level: options.level ?? DEFAULT_PNG_LEVEL,
    strategy: options.strategy ?? zlib.constants.Z_DEFAULT_STRATEGY,
  };
  const simd = filter === "up" || filter === "none" ? simdFilter() : null;
  if (simd) {
    // One pass over the whole image (2.7 ms for 1080p), copied out of the module's memory,
    // which the next encode on this thread reuses, before the awaits.
    const { rows, bpp } = simd.filterImage(pixels, width, height, bgrx !== null, filter === "up" ? 2 : 0);
    const idat = await deflateBands(sliceBands(rows.slice()), zlibOptions);
    return pngFile(width, height, bpp, idat!, crc32);
  }
  // Optimistically RGB: the filter reports alpha per band, and the first band with a
  // non-opaque pixel restarts the encode as RGBA (saves a 3 ms pre-scan on opaque 1080p).
  // BGRX captures (bgrx_image.ts) are opaque by definition.
  const words = pixelWords(width, height, pixels);
  let bpp: 3 | 4 = 3;
  let idat = await deflateBands(
    filterBands(new PngRowFilter(words, width, 3, filter, bgrx !== null), height),
    zlibOptions,
  );
  if (!idat) {
    bpp = 4;
    idat = (await deflateBands(filterBands(new PngRowFilter(words, width, 4, filter), height), zlibOptions))!;
  }
  return pngFile(width, height, bpp, idat, crc32);
}

let simd: PngSimd | null | undefined;

/** The WebAssembly SIMD filter, built on first use; null without WebAssembly SIMD. */
function simdFilter(): PngSimd | null {
  if (simd === undefined) simd = pngSimd();
  return simd;
}

/** Views the pixels as little-endian 32-bit words, copying only if misaligned. */
function pixelWords(width: number, height: number, data: Uint8Array): Int32Array {
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
  return new Int32Array(aligned.buffer, aligned.byteOffset, width * height);
}

/** Filtered scanlines in bands of about 1 MiB. */
function* sliceBands(rows: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < rows.length; at += BAND_BYTES) yield rows.subarray(at, at + BAND_BYTES);
}

/**
 * Filters band by band into one reused buffer; yields null instead of a band, and stops, if
 * an RGB (bpp 3) encode meets a pixel that is not opaque.
 */
function* filterBands(rows: PngRowFilter, height: number): Generator<Uint8Array | null> {
  const bandRows = Math.max(1, Math.floor(BAND_BYTES / rows.stride));
  const band = new Uint8Array(bandRows * rows.stride);
  for (let y = 0; y < height; y += bandRows) {
    const y1 = Math.min(height, y + bandRows);
    const alpha = rows.filterRows(y, y1, band);
    if (rows.bpp === 3 && alpha >> 24 !== -1) {
      yield null;
      return;
    }
    yield band.subarray(0, (y1 - y) * rows.stride);
  }
}

/**
 * Deflates bands into one zlib stream, yielding to the event loop between bands (each band
 * is written, and its buffer free again, before the next is asked for). Returns null,
 * abandoning the stream, when `bands` yields null.
 */
async function deflateBands(
  bands: Iterable<Uint8Array | null>,
  options: { level: number; strategy: number },
): Promise<Uint8Array[] | null> {
  const deflater = zlib.createDeflate({ ...options, chunkSize: ZLIB_CHUNK });
  const output: Uint8Array[] = [];
  deflater.on("data", (chunk: Uint8Array) => output.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflater.on("end", resolve);
    deflater.on("error", reject);
  });
  ended.catch(() => {}); // observed below; avoids an unhandled rejection if a write fails first
  for (const band of bands) {
    if (!band) {
      deflater.destroy();
      return null;
    }
    await new Promise<void>((resolve, reject) => {
      deflater.write(band, (error) => error ? reject(error) : resolve());
    });
    // setImmediate, not setTimeout(0): nested timeouts are clamped to 4 ms.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  deflater.end();
  await ended;
  return output;
}

/**
 * Decodes an 8-bit, non-interlaced PNG of colour type 2 (RGB) or 6 (RGBA) into RGBA.
 *
 * @param bytes The PNG file.
 * @returns Tightly packed RGBA pixels (alpha 255 for RGB sources).
 * @throws {TypeError} for malformed files (bad signature, CRC, or data) and for unsupported
 *   variants (other colour types, bit depths, interlacing).
 */
export function decodePng(bytes: Uint8Array): RawImage {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw new TypeError("Invalid PNG: bad signature");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0, height = 0, colourType = -1;
  const idat: Uint8Array[] = [];
  let at = 8;
  for (;;) {
    if (at + 12 > bytes.length) throw new TypeError("Invalid PNG: truncated before IEND");
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const end = at + 8 + length;
    if (end + 4 > bytes.length) throw new TypeError(`Invalid PNG: truncated ${type} chunk`);
    if (crc32(bytes.subarray(at + 4, end)) !== view.getUint32(end)) {
      throw new TypeError(`Invalid PNG: CRC mismatch in ${type} chunk`);
    }
    const data = bytes.subarray(at + 8, end);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, compression, filter, interlace] = data.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6)) {
        throw new TypeError(
          `Unsupported PNG: bit depth ${depth} colour type ${colour} (only 8-bit RGB/RGBA)`,
        );
      }
      if (compression !== 0 || filter !== 0) {
        throw new TypeError("Invalid PNG: unknown compression or filter method");
      }
      if (interlace !== 0) throw new TypeError("Unsupported PNG: interlaced");
      colourType = colour;
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      break;
    }
    at = end + 4;
  }
  if (colourType < 0 || width < 1 || height < 1) throw new TypeError("Invalid PNG: missing or empty IHDR");
  let scanlines: Uint8Array;
  try {
    scanlines = zlib.inflateSync(concat(idat));
  } catch (error) {
    throw new TypeError("Invalid PNG: corrupt image data", { cause: error });
  }
  const bpp = colourType === 2 ? 3 : 4;
  const raw = unfilterRows(scanlines, width, height, bpp);
  if (bpp === 4) return { width, height, data: raw };
  const data = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; j < raw.length; i += 4, j += 3) {
    data[i] = raw[j];
    data[i + 1] = raw[j + 1];
    data[i + 2] = raw[j + 2];
    data[i + 3] = 255;
  }
  return { width, height, data };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, at), at += part.length;
  return out;
}
