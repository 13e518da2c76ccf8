/**
 * Baseline JPEG encoder (JFIF, YCbCr 4:2:0, standard Annex K tables), written here rather than
 * using `jpeg-js` for speed and so that it yields to the event loop every 8 MCU rows (the
 * comparison: bench/results.md, "Design measurements"). Float AAN DCT with the quantiser folded
 * into the scale table, pixels read as 32-bit words, typed arrays throughout, no per-pixel calls.
 * No Huffman optimisation pass, so files are larger than ImageMagick's at the same quality.
 *
 * Alpha is ignored (screenshots are opaque). Chroma is subsampled 2x2, as every common
 * encoder does by default.
 *
 * @module
 */
import { setImmediate } from "node:timers";
import type { RawImage } from "../../ports/screen.ts";
import {
  AAN_SCALE,
  CHROMA_AC,
  CHROMA_DC,
  CHROMA_QUANT,
  type HuffmanSpec,
  LUMA_AC,
  LUMA_DC,
  LUMA_QUANT,
  ZIGZAG,
} from "./_jpeg_tables.ts";
import { JpegBitWriter } from "./_jpeg_writer.ts";

/** Default quality, libjpeg's scale (1-100). */
export const DEFAULT_JPEG_QUALITY = 80;

const MCU_ROWS_PER_YIELD = 8;

interface HuffmanCodes {
  code: Uint16Array;
  size: Uint8Array;
}

function huffmanCodes(spec: HuffmanSpec): HuffmanCodes {
  const code = new Uint16Array(256), size = new Uint8Array(256);
  let next = 0, k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < spec.counts[length - 1]; i++) {
      const symbol = spec.symbols[k++];
      code[symbol] = next++;
      size[symbol] = length;
    }
    next <<= 1;
  }
  return { code, size };
}

/** libjpeg's quality scaling of a base table; returns natural-order values 1-255. */
function scaledTable(base: number[], quality: number): Uint8Array {
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - quality * 2;
  return Uint8Array.from(base, (q) => Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100))));
}

/** Multipliers that undo the AAN output scaling and divide by the quantiser, natural order. */
function divisors(table: Uint8Array): Float32Array {
  const out = new Float32Array(64);
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      out[row * 8 + col] = 1 / (table[row * 8 + col] * AAN_SCALE[row] * AAN_SCALE[col] * 8);
    }
  }
  return out;
}

/** In-place AAN forward DCT of an 8x8 block (libjpeg jfdctflt.c). */
function forwardDct(d: Float32Array): void {
  for (let pass = 0; pass < 2; pass++) {
    const step = pass === 0 ? 1 : 8, next = pass === 0 ? 8 : 1;
    for (let i = 0, o = 0; i < 8; i++, o += next) {
      const o1 = o + step, o2 = o1 + step, o3 = o2 + step, o4 = o3 + step, o5 = o4 + step, o6 = o5 + step;
      const o7 = o6 + step;
      const t0 = d[o] + d[o7], t7 = d[o] - d[o7], t1 = d[o1] + d[o6], t6 = d[o1] - d[o6];
      const t2 = d[o2] + d[o5], t5 = d[o2] - d[o5], t3 = d[o3] + d[o4], t4 = d[o3] - d[o4];
      // Even part.
      let t10 = t0 + t3, t11 = t1 + t2;
      const t13 = t0 - t3, t12 = t1 - t2;
      d[o] = t10 + t11;
      d[o4] = t10 - t11;
      const z1 = (t12 + t13) * 0.707106781;
      d[o2] = t13 + z1;
      d[o6] = t13 - z1;
      // Odd part.
      t10 = t4 + t5;
      t11 = t5 + t6;
      const t12b = t6 + t7;
      const z5 = (t10 - t12b) * 0.382683433, z2 = 0.5411961 * t10 + z5, z4 = 1.306562965 * t12b + z5;
      const z3 = t11 * 0.707106781, z11 = t7 + z3, z13 = t7 - z3;
      d[o5] = z13 + z2;
      d[o3] = z13 - z2;
      d[o1] = z11 + z4;
      d[o7] = z11 - z4;
    }
  }
}

/** Transforms, quantises and entropy-codes one block; returns its DC value. */
function encodeBlock(
  out: JpegBitWriter,
  block: Float32Array,
  divisor: Float32Array,
  previousDc: number,
  dc: HuffmanCodes,
  ac: HuffmanCodes,
  zigzag: Int32Array,
): number {
  forwardDct(block);
  let last = 0;
  for (let i = 0; i < 64; i++) {
    const n = ZIGZAG[i], v = Math.round(block[n] * divisor[n]);
    zigzag[i] = v;
    if (v !== 0) last = i;
  }
  out.reserve(512);
  const diff = zigzag[0] - previousDc;
  if (diff === 0) out.bits(dc.code[0], dc.size[0]);
  else {
    const magnitude = diff < 0 ? -diff : diff, size = 32 - Math.clz32(magnitude);
    out.bits(dc.code[size], dc.size[size]);
    out.bits(diff < 0 ? diff - 1 : diff, size);
  }
  let run = 0;
  for (let i = 1; i <= last; i++) {
    const v = zigzag[i];
    if (v === 0) {
      run++;
      continue;
    }
    while (run > 15) {
      out.bits(ac.code[0xf0], ac.size[0xf0]);
      run -= 16;
    }
    const magnitude = v < 0 ? -v : v, size = 32 - Math.clz32(magnitude), symbol = (run << 4) | size;
    out.bits(ac.code[symbol], ac.size[symbol]);
    out.bits(v < 0 ? v - 1 : v, size);
    run = 0;
  }
  if (last < 63) out.bits(ac.code[0], ac.size[0]);
  return zigzag[0];
}

/** Options of {@linkcode encodeJpeg}. */
export interface EncodeJpegOptions {
  /**
   * Awaited at every yield (each 8 MCU rows): a background encode passes a function that
   * resolves once the work it must not slow down is done.
   */
  yieldTo?: () => Promise<void> | void;
}

/**
 * Encodes RGBA pixels as a baseline JPEG.
 *
 * @param image Pixels; `data.length` must be `width * height * 4`. Alpha is ignored.
 * @param quality 1-100 on libjpeg's scale (rounded and clamped); default 80.
 * @returns The JPEG file bytes.
 * @throws {RangeError} if the size is not positive or does not match the data, or the
 *   quality is not a number.
 */
export async function encodeJpeg(
  image: RawImage,
  quality = DEFAULT_JPEG_QUALITY,
  options: EncodeJpegOptions = {},
): Promise<Uint8Array> {
  const { width, height, data } = image;
  if (
    !Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 65535 ||
    height > 65535
  ) {
    throw new RangeError(
      `Cannot encode a ${width}x${height} JPEG: width and height must be integers in 1-65535`,
    );
  }
  if (data.length !== width * height * 4) {
    throw new RangeError(
      `Cannot encode a ${width}x${height} image from ${data.length} bytes: expected ${width * height * 4}`,
    );
  }
  if (!Number.isFinite(quality)) throw new RangeError(`Invalid JPEG quality ${quality}: expected 1-100`);
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const lumaTable = scaledTable(LUMA_QUANT, q), chromaTable = scaledTable(CHROMA_QUANT, q);
  const out = new JpegBitWriter(Math.max(4096, (width * height) >> 2));
  out.headers(width, height, lumaTable, chromaTable, [LUMA_DC, LUMA_AC, CHROMA_DC, CHROMA_AC]);

  const lumaDiv = divisors(lumaTable), chromaDiv = divisors(chromaTable);
  const [dcY, acY, dcC, acC] = [LUMA_DC, LUMA_AC, CHROMA_DC, CHROMA_AC].map(huffmanCodes);
  const luma = new Float32Array(256); // the MCU's four 8x8 luma blocks, one after another
  const ys = [0, 1, 2, 3].map((k) => luma.subarray(k * 64, k * 64 + 64));
  const cb = new Float32Array(64), cr = new Float32Array(64), zigzag = new Int32Array(64);
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, width * height); // 0xAABBGGRR
  const columns = new Int32Array(16); // source columns of an MCU, clamped at the right edge
  let dcLuma = 0, dcBlue = 0, dcRed = 0;
  const mcuRows = Math.ceil(height / 16), mcuColumns = Math.ceil(width / 16);

  for (let my = 0; my < mcuRows; my++) {
    for (let mx = 0; mx < mcuColumns; mx++) {
      for (let i = 0; i < 16; i++) columns[i] = Math.min(mx * 16 + i, width - 1);
      for (let yy = 0; yy < 16; yy += 2) {
        const r0 = Math.min(my * 16 + yy, height - 1) * width,
          r1 = Math.min(my * 16 + yy + 1, height - 1) * width;
        const yRow = ((yy >> 3) << 7) + ((yy & 7) << 3), cRow = (yy >> 1) << 3;
        for (let xx = 0; xx < 16; xx += 2) {
          const c0 = columns[xx], c1 = columns[xx + 1];
          const va = words[r0 + c0], vb = words[r0 + c1], vc = words[r1 + c0], vd = words[r1 + c1];
          const ra = va & 0xff, ga = (va >> 8) & 0xff, ba = (va >> 16) & 0xff;
          const rb = vb & 0xff, gb = (vb >> 8) & 0xff, bb = (vb >> 16) & 0xff;
          const rc = vc & 0xff, gc = (vc >> 8) & 0xff, bc = (vc >> 16) & 0xff;
          const rd = vd & 0xff, gd = (vd >> 8) & 0xff, bd = (vd >> 16) & 0xff;
          const at = yRow + ((xx >> 3) << 6) + (xx & 7);
          luma[at] = 0.299 * ra + 0.587 * ga + 0.114 * ba - 128;
          luma[at + 1] = 0.299 * rb + 0.587 * gb + 0.114 * bb - 128;
          luma[at + 8] = 0.299 * rc + 0.587 * gc + 0.114 * bc - 128;
          luma[at + 9] = 0.299 * rd + 0.587 * gd + 0.114 * bd - 128;
          const r = (ra + rb + rc + rd) * 0.25,
            g = (ga + gb + gc + gd) * 0.25,
            b = (ba + bb + bc + bd) * 0.25;
          const c = cRow + (xx >> 1);
          cb[c] = -0.168736 * r - 0.331264 * g + 0.5 * b;
          cr[c] = 0.5 * r - 0.418688 * g - 0.081312 * b;
        }
      }
      for (const block of ys) dcLuma = encodeBlock(out, block, lumaDiv, dcLuma, dcY, acY, zigzag);
      dcBlue = encodeBlock(out, cb, chromaDiv, dcBlue, dcC, acC, zigzag);
      dcRed = encodeBlock(out, cr, chromaDiv, dcRed, dcC, acC, zigzag);
    }
    if (my % MCU_ROWS_PER_YIELD === MCU_ROWS_PER_YIELD - 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      // A background encode (the live view) steps aside while more urgent work runs.
      await options.yieldTo?.();
    }
  }
  return out.finish();
}
