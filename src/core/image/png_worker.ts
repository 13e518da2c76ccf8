/**
 * PNG encoding on a long-lived Worker, so that encoding a screenshot overlaps the JS that
 * reads an accessibility tree (Deno 2.9's node:zlib `deflate` callback API runs on the main
 * thread, see png.ts).
 *
 * - One Worker, created on first use and reused; {@linkcode closePngWorker} (called by the
 *   runtime's close) terminates it. A Worker keeps the process alive until terminated.
 * - Its script is generated, not a file: the text of three self-contained functions
 *   ({@linkcode pngKernel}, {@linkcode pngSimd} and the Worker's main) in a `data:` URL, so it
 *   works from the single
 *   bundled file and from `deno compile` (whose embedded loader has long resolved `data:`
 *   specifiers; `blob:` Worker URLs failed there before denoland/deno#34574). The Worker imports
 *   node:zlib (zlib-ng, as on the main thread) dynamically.
 * - Pixels are transferred, not copied: the image's buffer is lent to the Worker and comes back
 *   with the PNG, and `image.data` (or the BGRX bytes of a {@linkcode bgrxImage}) is replaced by
 *   a view of the returned buffer. BGRX captures are filtered as BGRX (no RGBA pass).
 * - The first encode runs on this thread with {@linkcode encodePng} and then starts the Worker
 *   (start-up measured 80-300 ms on the 2-core VM); so do encodes while it starts and, for
 *   good, if it cannot start. A one-shot CLI call is never slower than before.
 *
 * Measured with scripts/bench.ts against the previous in-thread encoder, interleaved runs on
 * the 2-core VM (medians of 6 medians of 15): get_window_state of gtk3-widget-factory 47.7 ->
 * 36.1 ms (tree only 25-27 ms), get_desktop_state 1080p 43.3 -> 25.6 ms. With two vCPUs the
 * encode still slows the tree fetch it overlaps (the app, the driver and the Worker all want a
 * core), which is what keeps get_window_state above its tree-only time.
 *
 * @module
 */
import type { RawImage } from "../../platform/types.ts";
import { type PixelFormat, type PngKernel, pngKernel } from "./_png_kernel.ts";
import { type PngSimd, pngSimd } from "./_png_simd.ts";
import { lendBgrx, peekBgrx, returnBgrx } from "./bgrx_image.ts";
import { DEFAULT_PNG_LEVEL, encodePng, type EncodePngOptions } from "./png.ts";

/** Lifecycle of a {@linkcode PngEncoderWorker}. */
export type PngWorkerState = "idle" | "starting" | "ready" | "failed" | "closed";

/** Options for {@linkcode PngEncoderWorker}. */
export interface PngEncoderWorkerOptions {
  /** Creates the Worker from its script URL (tests inject failures here); default `new Worker`. */
  spawn?: (url: string) => Worker;
  /** Filter with WebAssembly SIMD when the Worker has it (default true; false tests the JS filter). */
  simd?: boolean;
}

/** One encode request, main thread to Worker. */
interface EncodeJob {
  id: number;
  width: number;
  height: number;
  format: PixelFormat;
  pixels: ArrayBuffer;
  filter: 0 | 1 | 2;
  simd: boolean;
  level: number;
  strategy: number;
}

/** Worker to main thread. */
type WorkerReply =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "done"; id: number; png: Uint8Array; pixels: ArrayBuffer }
  | { type: "error"; id: number; message: string; pixels: ArrayBuffer };

interface Pending {
  resolve(reply: WorkerReply & { type: "done" | "error" }): void;
  reject(error: Error): void;
}

const { checkSize } = pngKernel();
const WORD_FILTERS: Record<string, 0 | 1 | 2> = { none: 0, sub: 1, up: 2 };
const Z_DEFAULT_STRATEGY = 0;

/**
 * The Worker's main function. Self-contained (its text is the Worker's script): everything
 * it needs comes from `kernel`, `simd` (null without WebAssembly SIMD) and node:zlib.
 */
function pngWorkerMain(kernel: PngKernel, simd: PngSimd | null): void {
  type Zlib = typeof import("node:zlib");
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<EncodeJob>) => void) | null;
    postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  };
  const BAND_BYTES = 1 << 20;
  let scratchBytes = new Uint8Array(0);

  /** A reused buffer of at least `size` bytes (deflateSync only reads it). */
  function filteredBuffer(size: number): Uint8Array {
    if (scratchBytes.length < size) scratchBytes = new Uint8Array(size);
    return scratchBytes.subarray(0, size);
  }

  function encode(zlib: Zlib, job: EncodeJob): Uint8Array {
    const { width, height } = job;
    const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
    const crc = (bytes: Uint8Array) => {
      if (crc32) return crc32(bytes) >>> 0;
      let c = -1;
      for (let i = 0; i < bytes.length; i++) {
        c ^= bytes[i];
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      }
      return ~c >>> 0;
    };
    const zlibOptions = { level: job.level, strategy: job.strategy };
    if (simd && job.simd && job.filter !== 1) {
      const pixels = new Uint8Array(job.pixels, 0, width * height * 4);
      const { rows, bpp } = simd.filterImage(pixels, width, height, job.format === "bgrx", job.filter);
      return kernel.pngFile(width, height, bpp, [zlib.deflateSync(rows, zlibOptions)], crc);
    }
    const words = new Int32Array(job.pixels, 0, width * height);
    const bgrx = job.format === "bgrx";
    const scratch = { zeros: new Int32Array(width), left: new Int32Array(width) };
    let bpp: 3 | 4 = 3;
    let filtered = filteredBuffer((1 + width * 3) * height);
    // Optimistically RGB, band by band; the first band with a non-opaque pixel restarts as RGBA.
    const bandRows = Math.max(1, Math.floor(BAND_BYTES / (1 + width * 3)));
    for (let y = 0; y < height; y += bandRows) {
      const y1 = Math.min(height, y + bandRows);
      const band = filtered.subarray(y * (1 + width * 3));
      const alpha = kernel.filterRows(words, width, 3, bgrx, job.filter, y, y1, band, scratch);
      if (!bgrx && alpha >> 24 !== -1) {
        bpp = 4;
        filtered = filteredBuffer((1 + width * 4) * height);
        kernel.filterRows(words, width, 4, false, job.filter, 0, height, filtered, scratch);
        break;
      }
    }
    return kernel.pngFile(width, height, bpp, [zlib.deflateSync(filtered, zlibOptions)], crc);
  }

  const zlibReady: Promise<Zlib> = import("node:zlib").then((module) => module.default as Zlib);
  zlibReady.then(
    () => scope.postMessage({ type: "ready" }),
    (error) => scope.postMessage({ type: "failed", message: String(error) }),
  );
  scope.onmessage = async (event) => {
    const job = event.data;
    try {
      const png = encode(await zlibReady, job);
      scope.postMessage({ type: "done", id: job.id, png, pixels: job.pixels }, [
        png.buffer as ArrayBuffer,
        job.pixels,
      ]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      scope.postMessage({ type: "error", id: job.id, message, pixels: job.pixels }, [job.pixels]);
    }
  };
}

let scriptUrl: string | null = null;

/** The Worker's script as a `data:` URL (built once): the three self-contained functions' text. */
function workerUrl(): string {
  scriptUrl ??= "data:text/javascript," + encodeURIComponent(
    `const kernel = (${pngKernel.toString()})();\nconst simd = (${pngSimd.toString()})();\n` +
      `(${pngWorkerMain.toString()})(kernel, simd);\n`,
  );
  return scriptUrl;
}

/** Pixels lent to the Worker: what to send, and how to put them back. */
interface Loan {
  format: PixelFormat;
  buffer: ArrayBuffer;
  giveBack(buffer: ArrayBuffer): void;
}

/** Lends an image's pixel buffer for a transfer; copies when the view does not own its buffer. */
function lend(image: RawImage): Loan {
  const bgrx = lendBgrx(image);
  const bytes = bgrx ?? image.data;
  const owned = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  const buffer = owned ? bytes.buffer as ArrayBuffer : bytes.slice().buffer;
  const giveBack = bgrx
    ? (back: ArrayBuffer) => returnBgrx(image, owned ? new Uint8Array(back) : bgrx)
    : (back: ArrayBuffer) => {
      if (owned) image.data = new Uint8Array(back);
    };
  return { format: bgrx ? "bgrx" : "rgba", buffer, giveBack };
}

/** A PNG encoder running on its own Worker, with {@linkcode encodePng} as the fallback. */
export class PngEncoderWorker {
  readonly #spawn: (url: string) => Worker;
  readonly #simd: boolean;
  #worker: Worker | null = null;
  #state: PngWorkerState = "idle";
  #started: Promise<boolean> | null = null;
  #settleStart: (ready: boolean) => void = () => {};
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  constructor(options: PngEncoderWorkerOptions = {}) {
    this.#spawn = options.spawn ?? ((url) => new Worker(url, { type: "module", name: "cua-png-encoder" }));
    this.#simd = options.simd ?? true;
  }

  /** Where the Worker is in its life. */
  get state(): PngWorkerState {
    return this.#state;
  }

  /**
   * Starts the Worker if it has not been started.
   *
   * @returns Resolves true once the Worker can encode, false if it cannot start or was closed.
   */
  start(): Promise<boolean> {
    if (this.#state === "closed") return Promise.resolve(false);
    if (this.#started) return this.#started;
    this.#started = new Promise<boolean>((resolve) => this.#settleStart = resolve);
    this.#state = "starting";
    try {
      const worker = this.#spawn(workerUrl());
      worker.onmessage = (event: MessageEvent<WorkerReply>) => this.#onReply(event.data);
      worker.onerror = (event: ErrorEvent) => {
        // Not preventing it would rethrow the Worker's error in this thread and end the process.
        event.preventDefault();
        this.#fail(`the PNG encoder Worker failed: ${event.message}`);
      };
      worker.onmessageerror = () => this.#fail("the PNG encoder Worker sent an unreadable message");
      this.#worker = worker;
    } catch (error) {
      this.#fail(`the PNG encoder Worker could not start: ${(error as Error).message}`);
    }
    return this.#started;
  }

  /**
   * Encodes like {@linkcode encodePng}; on the Worker when it is ready, else on this thread
   * (and then starts the Worker for next time).
   *
   * The image's pixel buffer is transferred to the Worker and back: until the promise settles
   * `image.data` must not be read (it is empty, or throws for a BGRX image); afterwards it holds
   * the same pixels in a new buffer. Views that do not own their whole buffer are copied instead.
   *
   * @param image Pixels (RGBA, or a {@linkcode bgrxImage}).
   * @param options As for {@linkcode encodePng}; "paeth" and "adaptive" always run on this thread.
   * @returns The PNG file bytes.
   * @throws {RangeError} if the size is not positive or does not match the data.
   * @throws {Error} if the Worker dies or is closed while it holds the pixels.
   */
  async encode(image: RawImage, options: EncodePngOptions = {}): Promise<Uint8Array> {
    const filter = WORD_FILTERS[options.filter ?? "up"];
    if (this.#state !== "ready" || filter === undefined) {
      try {
        return await encodePng(image, options);
      } finally {
        // Started after, not before, the first encode: the Worker's start-up would compete for
        // the CPU with it, and a one-shot CLI call never uses the Worker at all.
        if (this.#state === "idle") void this.start();
      }
    }
    checkSize(image.width, image.height, (peekBgrx(image) ?? image.data).length);
    const loan = lend(image);
    const id = this.#nextId++;
    const job: EncodeJob = {
      id,
      width: image.width,
      height: image.height,
      format: loan.format,
      pixels: loan.buffer,
      filter,
      simd: this.#simd,
      level: options.level ?? DEFAULT_PNG_LEVEL,
      strategy: options.strategy ?? Z_DEFAULT_STRATEGY,
    };
    const reply = await new Promise<WorkerReply & { type: "done" | "error" }>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker!.postMessage(job, [loan.buffer]);
    });
    loan.giveBack(reply.pixels);
    // An error in the Worker: the pixels are back, so encode here (which reports real errors).
    return reply.type === "done" ? reply.png : await encodePng(image, options);
  }

  /** Terminates the Worker; pending encodes reject. Later encodes run on this thread. */
  close(): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.#worker?.terminate();
    this.#worker = null;
    this.#settleStart(false);
    this.#rejectAll("the PNG encoder was closed during the encode");
  }

  #onReply(reply: WorkerReply): void {
    if (reply.type === "ready") {
      if (this.#state === "starting") this.#state = "ready";
      this.#settleStart(this.#state === "ready");
    } else if (reply.type === "failed") {
      this.#fail(`the PNG encoder Worker could not load node:zlib: ${reply.message}`);
    } else {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      pending?.resolve(reply);
    }
  }

  #fail(message: string): void {
    if (this.#state === "closed") return;
    this.#state = "failed";
    this.#worker?.terminate();
    this.#worker = null;
    this.#settleStart(false);
    this.#rejectAll(message);
  }

  #rejectAll(message: string): void {
    for (const pending of this.#pending.values()) pending.reject(new Error(message));
    this.#pending.clear();
  }
}

let shared: PngEncoderWorker | null = null;

/**
 * Encodes on the process-wide encoder Worker (created on first use), or on this thread until it
 * is ready. See {@linkcode PngEncoderWorker.encode} for the transfer of the pixel buffer.
 *
 * @param image Pixels (RGBA, or a {@linkcode bgrxImage}); do not read `image.data` until it settles.
 * @param options As for {@linkcode encodePng}.
 * @returns The PNG file bytes.
 * @throws {RangeError} if the size is not positive or does not match the data.
 * @example
 * ```ts
 * const options: PngEncoderWorkerOptions = {}; // a private encoder, e.g. for tests
 * const own = new PngEncoderWorker(options);
 * const before: PngWorkerState = own.state;
 * own.close();
 * console.log(before, pngWorkerState()); // idle none
 * await startPngWorker(); // optional: the first encode starts it
 * const red = { width: 1, height: 1, data: new Uint8Array([255, 0, 0, 255]) };
 * const png = await encodePngOffThread(red); // on the Worker, now that it is ready
 * closePngWorker(); // the runtime's close does this
 * console.log(png.length > 0); // true
 * ```
 */
export function encodePngOffThread(image: RawImage, options: EncodePngOptions = {}): Promise<Uint8Array> {
  shared ??= new PngEncoderWorker();
  return shared.encode(image, options);
}

/**
 * Starts the process-wide encoder Worker ahead of its first use (optional: the first encode
 * starts it anyway, and encodes on this thread meanwhile).
 *
 * @returns Resolves true once it can encode, false if it cannot start.
 */
export function startPngWorker(): Promise<boolean> {
  shared ??= new PngEncoderWorker();
  return shared.start();
}

/** The process-wide encoder Worker's state, or "none" before first use and after close. */
export function pngWorkerState(): PngWorkerState | "none" {
  return shared?.state ?? "none";
}

/** Terminates the process-wide encoder Worker, if any; the next encode creates a new one. */
export function closePngWorker(): void {
  shared?.close();
  shared = null;
}
