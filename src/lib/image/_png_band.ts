/**
 * The PNG encoder Worker's main function: encodes one band of rows (filter, then raw deflate,
 * then the Adler-32 of the filtered bytes) and sends back the compressed bytes. Self-contained
 * like `_png_kernel.ts`: its text is part of the Worker's script (png_worker.ts), so it uses
 * nothing from outside the function but its arguments and node:zlib.
 *
 * @module
 */
import type { PixelFormat, PngKernel } from "./_png_kernel.ts";
import type { PngSimd } from "./_png_simd.ts";

/** One band to encode, main thread to Worker. */
export interface BandJob {
  id: number;
  width: number;
  /** Rows of the band. */
  rows: number;
  /** The pixels start with the row above the band (the Up filter reads it); not encoded. */
  above: boolean;
  format: PixelFormat;
  /** At least `(rows + above) * width * 4` bytes. */
  pixels: ArrayBuffer;
  filter: 0 | 1 | 2;
  simd: boolean;
  /** 3 or 4 bytes per pixel; 0 lets the band choose RGB when all of it is opaque. */
  bpp: 0 | 3 | 4;
  level: number;
  strategy: number;
  /** The last band ends the deflate stream; the others end with a sync flush. */
  last: boolean;
}

/** Worker to main thread. */
export type BandReply =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | {
    type: "done";
    id: number;
    bpp: 3 | 4;
    /** Raw deflate bytes. */
    deflated: Uint8Array;
    /** Adler-32 and length of the filtered bytes the band holds. */
    adler: number;
    length: number;
    pixels: ArrayBuffer;
  }
  | { type: "error"; id: number; message: string; pixels: ArrayBuffer };

/**
 * The Worker's main function. Self-contained (its text is the Worker's script): everything
 * it needs comes from `kernel`, `simd` (null without WebAssembly SIMD) and node:zlib.
 */
export function pngBandMain(kernel: PngKernel, simd: PngSimd | null): void {
  type Zlib = typeof import("node:zlib");
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<BandJob>) => void) | null;
    postMessage(message: BandReply, transfer?: Transferable[]): void;
  };
  let scratchBytes = new Uint8Array(0);

  /** A reused buffer of at least `size` bytes (deflate only reads it). */
  function filteredBuffer(size: number): Uint8Array {
    if (scratchBytes.length < size) scratchBytes = new Uint8Array(size);
    return scratchBytes.subarray(0, size);
  }

  /** The band's filtered scanlines and their bytes per pixel. */
  function filter(job: BandJob): { rows: Uint8Array; bpp: 3 | 4 } {
    const { width } = job;
    const total = job.rows + (job.above ? 1 : 0);
    const bgrx = job.format === "bgrx";
    if (simd && job.simd && job.filter !== 1) {
      const pixels = new Uint8Array(job.pixels, 0, width * total * 4);
      const { rows, bpp } = simd.filterImage(pixels, width, total, bgrx, job.filter, job.bpp === 4);
      // The row above was filtered too (against zeros): drop it.
      return { rows: job.above ? rows.subarray(1 + width * bpp) : rows, bpp };
    }
    const words = new Int32Array(job.pixels, 0, width * total);
    const scratch = { zeros: new Int32Array(width), left: new Int32Array(width) };
    const y0 = job.above ? 1 : 0;
    if (job.bpp !== 4) {
      const rows = filteredBuffer((1 + width * 3) * job.rows);
      const alpha = kernel.filterRows(words, width, 3, bgrx, job.filter, y0, total, rows, scratch);
      if (bgrx || alpha >> 24 === -1) return { rows, bpp: 3 };
    }
    const rows = filteredBuffer((1 + width * 4) * job.rows);
    kernel.filterRows(words, width, 4, false, job.filter, y0, total, rows, scratch);
    return { rows, bpp: 4 };
  }

  const zlibReady: Promise<Zlib> = import("node:zlib").then((module) => module.default as Zlib);
  zlibReady.then(
    () => scope.postMessage({ type: "ready" }),
    (error) => scope.postMessage({ type: "failed", message: String(error) }),
  );
  scope.onmessage = async (event) => {
    const job = event.data;
    try {
      const zlib = await zlibReady;
      const { rows, bpp } = filter(job);
      let deflated: Uint8Array = zlib.deflateRawSync(rows, {
        level: job.level,
        strategy: job.strategy,
        finishFlush: job.last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
      });
      // A small Buffer may be a view into node's shared pool: never transfer that.
      if (deflated.byteOffset !== 0 || deflated.byteLength !== deflated.buffer.byteLength) {
        deflated = deflated.slice();
      }
      // SIMD sums the rows where the filter left them; the JS sum is the fallback.
      const adler = simd && job.simd ? simd.adler32(rows) : kernel.adler32(rows);
      const reply: BandReply = {
        type: "done",
        id: job.id,
        bpp,
        deflated,
        adler,
        length: rows.length,
        pixels: job.pixels,
      };
      scope.postMessage(reply, [deflated.buffer as ArrayBuffer, job.pixels]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      scope.postMessage({ type: "error", id: job.id, message, pixels: job.pixels }, [job.pixels]);
    }
  };
}
