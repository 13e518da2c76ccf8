/**
 * PNG encoding on long-lived Workers, in parallel bands, so that encoding a screenshot takes a
 * fraction of one core's time and overlaps the JS that reads an accessibility tree.
 *
 * - A pool of Workers (one per core, at most four), created on first use and reused;
 *   {@linkcode closePngWorker} (called by the runtime's close) terminates them. A Worker keeps
 *   the process alive until terminated.
 * - An image is cut into one band of rows per ready Worker. Each Worker filters its band (the
 *   row above it comes along for the Up filter), deflates it as raw deflate on its own (zlib-ng,
 *   level 2: a sync flush ends every band but the last) and sums its Adler-32; the main thread
 *   joins the bands into one zlib stream, combining the checksums (`_zlib_join.ts`), as pigz does.
 * - The Worker's script is generated, not a file: the text of the self-contained functions
 *   ({@linkcode pngKernel}, {@linkcode pngSimd}, {@linkcode pngBandMain}) in a `data:` URL, so
 *   it works from the single bundled file and from `deno compile` (whose embedded loader has long
 *   resolved `data:` specifiers; `blob:` Worker URLs failed there before denoland/deno#34574).
 * - Pixels are transferred, not copied, to the first band's Worker: the image's buffer is lent and
 *   comes back with its band, and `image.data` (or the BGRX bytes of a {@linkcode bgrxImage}) is
 *   replaced by a view of the returned buffer. The other bands get copies of their rows.
 * - The first encode runs on this thread with {@linkcode encodePng} and then starts the Workers
 *   (a Worker's start-up is slow); so do encodes while none is ready and, for good, if none can
 *   start. A one-shot CLI call never starts them.
 *
 * @module
 */
import type { RawImage } from "../../ports/screen.ts";
import { type BandJob, type BandReply, pngBandMain } from "./_png_band.ts";
import { type PixelFormat, pngKernel } from "./_png_kernel.ts";
import { pngSimd } from "./_png_simd.ts";
import { type DeflatePart, joinDeflateParts } from "./_zlib_join.ts";
import { crc32 } from "./_crc32.ts";
import { onRelease } from "../process_resources.ts";
import { lendBgrx, peekBgrx, returnBgrx } from "./bgrx_image.ts";
import { DEFAULT_PNG_LEVEL, encodePng, type EncodePngOptions } from "./png.ts";

/** Lifecycle of a {@linkcode PngEncoderPool}. */
export type PngWorkerState = "idle" | "starting" | "ready" | "failed" | "closed";

/** Options for {@linkcode PngEncoderPool}. */
export interface PngEncoderPoolOptions {
  /** Creates a Worker from its script URL (tests inject failures here); default `new Worker`. */
  spawn?: (url: string) => Worker;
  /** Filter with WebAssembly SIMD when the Workers have it (default true; false tests the JS filter). */
  simd?: boolean;
  /** How many Workers (bands per image); default one per core, at most four. */
  workers?: number;
  /** Smallest band worth a Worker of its own, in pixel bytes (default 256 KiB). */
  minBandBytes?: number;
}

interface Pending {
  resolve(reply: BandReply & { type: "done" | "error" }): void;
  reject(error: Error): void;
}

/** One Worker of the pool. */
interface Member {
  worker: Worker;
  ready: boolean;
  /**
   * The buffer this Worker's copied bands travel in, back from its last band: reused, because
   * fresh pages cost a page fault each (18 ms of CPU for 4 MiB on the VMs these run on).
   */
  spare: ArrayBuffer | null;
  /** Ready or failed: counted by allReady. */
  settled: boolean;
}

const { checkSize, pngFile } = pngKernel();
const WORD_FILTERS: Record<string, 0 | 1 | 2> = { none: 0, sub: 1, up: 2 };
const Z_DEFAULT_STRATEGY = 0;
/** Images smaller than this go in one band: the split would cost more than it saves. */
const MIN_BAND_BYTES = 256 * 1024;

let scriptUrl: string | null = null;

/** The Workers' script as a `data:` URL (built once): the self-contained functions' text. */
function workerUrl(): string {
  scriptUrl ??= "data:text/javascript," + encodeURIComponent(
    `const kernel = (${pngKernel.toString()})();\nconst simd = (${pngSimd.toString()})();\n` +
      `(${pngBandMain.toString()})(kernel, simd);\n`,
  );
  return scriptUrl;
}

/** Pixels lent to the first band's Worker: what to send, and how to put them back. */
interface Loan {
  format: PixelFormat;
  bytes: Uint8Array;
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
  return { format: bgrx ? "bgrx" : "rgba", bytes, buffer, giveBack };
}

/** Default pool size: one Worker per core, at most four. */
function defaultWorkers(): number {
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}

/** PNG encoders running on a pool of Workers, with {@linkcode encodePng} as the fallback. */
export class PngEncoderPool {
  readonly #spawn: (url: string) => Worker;
  readonly #simd: boolean;
  readonly #size: number;
  readonly #minBandBytes: number;
  readonly #members: Member[] = [];
  #settled = 0;
  #allSettled: Promise<number> | null = null;
  #settleAll: (ready: number) => void = () => {};
  #state: PngWorkerState = "idle";
  #started: Promise<boolean> | null = null;
  #settleStart: (ready: boolean) => void = () => {};
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  constructor(options: PngEncoderPoolOptions = {}) {
    this.#spawn = options.spawn ?? ((url) => new Worker(url, { type: "module", name: "cua-png-encoder" }));
    this.#simd = options.simd ?? true;
    this.#size = Math.max(1, Math.floor(options.workers ?? defaultWorkers()));
    this.#minBandBytes = options.minBandBytes ?? MIN_BAND_BYTES;
  }

  /** Where the pool is in its life: ready once one Worker can encode. */
  get state(): PngWorkerState {
    return this.#state;
  }

  /** Workers ready to encode (bands an image is cut into). */
  get readyWorkers(): number {
    return this.#members.filter((m) => m.ready).length;
  }

  /**
   * Starts the Workers (if not started) and waits until each is ready or has failed.
   *
   * @returns How many are ready.
   */
  allReady(): Promise<number> {
    void this.start();
    this.#allSettled ??= new Promise<number>((resolve) => {
      this.#settleAll = resolve;
      if (this.#settled >= this.#size) resolve(this.readyWorkers);
    });
    return this.#allSettled;
  }

  /**
   * Starts the Workers if they have not been started.
   *
   * @returns Resolves true once one Worker can encode (the others join as they become ready),
   *   false if none can start or the pool was closed.
   */
  start(): Promise<boolean> {
    if (this.#state === "closed") return Promise.resolve(false);
    if (this.#started) return this.#started;
    this.#started = new Promise<boolean>((resolve) => this.#settleStart = resolve);
    this.#state = "starting";
    for (let i = 0; i < this.#size; i++) {
      try {
        const member: Member = {
          worker: this.#spawn(workerUrl()),
          ready: false,
          settled: false,
          spare: null,
        };
        member.worker.onmessage = (event: MessageEvent<BandReply>) => this.#onReply(member, event.data);
        member.worker.onerror = (event: ErrorEvent) => {
          // Not preventing it would rethrow the Worker's error in this thread and end the process.
          event.preventDefault();
          this.#drop(member, `a PNG encoder Worker failed: ${event.message}`);
        };
        member.worker.onmessageerror = () =>
          this.#drop(member, "a PNG encoder Worker sent an unreadable message");
        this.#members.push(member);
      } catch {
        this.#countSettled(null); // this one cannot start; the others may
      }
    }
    if (this.#members.length === 0) this.#drop(null, "no PNG encoder Worker could start");
    return this.#started;
  }

  /**
   * Encodes like {@linkcode encodePng}; in bands on the ready Workers, else on this thread (and
   * then starts the Workers for next time).
   *
   * The image's pixel buffer is transferred to a Worker and back: until the promise settles
   * `image.data` must not be read (it is empty, or throws for a BGRX image); afterwards it holds
   * the same pixels in a new buffer. Views that do not own their whole buffer are copied instead.
   *
   * @param image Pixels (RGBA, or a {@linkcode bgrxImage}).
   * @param options As for {@linkcode encodePng}; "paeth" and "adaptive" always run on this thread.
   * @returns The PNG file bytes.
   * @throws {RangeError} if the size is not positive or does not match the data.
   * @throws {Error} if the Workers die or are closed while they hold the pixels.
   */
  async encode(image: RawImage, options: EncodePngOptions = {}): Promise<Uint8Array> {
    const filter = WORD_FILTERS[options.filter ?? "up"];
    const members = this.#members.filter((m) => m.ready);
    if (members.length === 0 || filter === undefined) {
      try {
        return await encodePng(image, options);
      } finally {
        // Started after, not before, the first encode: the Workers' start-up would compete for
        // the CPU with it, and a one-shot CLI call never uses them at all.
        if (this.#state === "idle") void this.start();
      }
    }
    const { width, height } = image;
    checkSize(width, height, (peekBgrx(image) ?? image.data).length);
    const level = options.level ?? DEFAULT_PNG_LEVEL;
    const strategy = options.strategy ?? Z_DEFAULT_STRATEGY;
    const bands = Math.max(
      1,
      Math.min(members.length, height, Math.floor(width * height * 4 / this.#minBandBytes)),
    );
    const loan = lend(image);
    const job = (i: number, bpp: 0 | 3 | 4, pixels: ArrayBuffer): Omit<BandJob, "id"> => {
      const [y0, y1] = [Math.floor(height * i / bands), Math.floor(height * (i + 1) / bands)];
      return {
        width,
        rows: y1 - y0,
        above: y0 > 0,
        format: loan.format,
        pixels,
        filter,
        simd: this.#simd,
        bpp,
        level,
        strategy,
        last: i === bands - 1,
      };
    };
    /** Band `i`'s rows (and the row above) in its Worker's spare buffer. */
    const rowsOf = (i: number): ArrayBuffer => {
      const y0 = Math.floor(height * i / bands), y1 = Math.floor(height * (i + 1) / bands);
      const rows = loan.bytes.subarray(Math.max(0, y0 - 1) * width * 4, y1 * width * 4);
      const spare = members[i].spare;
      members[i].spare = null;
      const buffer = spare && spare.byteLength >= rows.length ? spare : new ArrayBuffer(rows.length);
      new Uint8Array(buffer).set(rows);
      return buffer;
    };
    // Copies first: band 0 takes the image's own buffer away.
    const copies = Array.from({ length: bands - 1 }, (_, i) => rowsOf(i + 1));
    const run = (bpp: 0 | 3 | 4, first: ArrayBuffer, rest: ArrayBuffer[]) =>
      Promise.all([first, ...rest].map((pixels, i) => this.#send(members[i], job(i, bpp, pixels))));
    let replies = await run(0, loan.buffer, copies);
    loan.giveBack(replies[0].pixels);
    const keepSpares = () => replies.slice(1).forEach((r, i) => members[i + 1].spare = r.pixels);
    if (replies.some((r) => r.type === "error")) {
      keepSpares();
      return await encodePng(image, options);
    }
    let done = replies as (BandReply & { type: "done" })[];
    if (done.some((r) => r.bpp === 4) && done.some((r) => r.bpp === 3)) {
      // Some band has a pixel that is not opaque: every band must be RGBA.
      const again = lend(image);
      replies = await run(4, again.buffer, done.slice(1).map((r) => r.pixels));
      again.giveBack(replies[0].pixels);
      if (replies.some((r) => r.type === "error")) {
        keepSpares();
        return await encodePng(image, options);
      }
      done = replies as (BandReply & { type: "done" })[];
    }
    keepSpares();
    const parts: DeflatePart[] = done.map((r) => ({
      deflated: r.deflated,
      adler: r.adler,
      length: r.length,
    }));
    return pngFile(width, height, done[0].bpp, [joinDeflateParts(parts, level)], crc32);
  }

  /** Terminates the Workers; pending encodes reject. Later encodes run on this thread. */
  close(): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    for (const member of this.#members) member.worker.terminate();
    this.#members.length = 0;
    this.#settleStart(false);
    this.#settleAll(0);
    this.#rejectAll("the PNG encoder was closed during the encode");
  }

  #send(member: Member, job: Omit<BandJob, "id">): Promise<BandReply & { type: "done" | "error" }> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      member.worker.postMessage({ ...job, id }, [job.pixels]);
    });
  }

  #onReply(member: Member, reply: BandReply): void {
    if (reply.type === "ready") {
      member.ready = true;
      if (this.#state === "starting") this.#state = "ready";
      this.#settleStart(this.#state === "ready");
      this.#countSettled(member);
    } else if (reply.type === "failed") {
      this.#drop(member, `a PNG encoder Worker could not load node:zlib: ${reply.message}`);
    } else {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      pending?.resolve(reply);
    }
  }

  /** Ends a Worker that failed; with none left, the pool has failed and encodes run on this thread. */
  #drop(member: Member | null, message: string): void {
    if (this.#state === "closed") return;
    const index = member ? this.#members.indexOf(member) : -1;
    if (member && index < 0) return; // dropped already
    if (member) this.#countSettled(member);
    if (member) {
      member.worker.terminate();
      this.#members.splice(index, 1);
      // Its bands can never come back: fail the encodes waiting on any band.
      this.#rejectAll(message);
    }
    if (this.#members.length === 0) {
      this.#state = "failed";
      this.#settleStart(false);
    }
  }

  /** Counts Workers that became ready or failed; resolves {@linkcode allReady} when all have. */
  #countSettled(member: Member | null): void {
    if (member === null || !member.settled) this.#settled++;
    if (member) member.settled = true;
    if (this.#settled >= this.#size || this.#state === "closed") this.#settleAll(this.readyWorkers);
  }

  #rejectAll(message: string): void {
    for (const pending of this.#pending.values()) pending.reject(new Error(message));
    this.#pending.clear();
  }
}

let shared: PngEncoderPool | null = null;

/**
 * Encodes on the process-wide encoder Workers (created on first use), or on this thread until
 * one is ready. See {@linkcode PngEncoderPool.encode} for the transfer of the pixel buffer.
 *
 * @param image Pixels (RGBA, or a {@linkcode bgrxImage}); do not read `image.data` until it settles.
 * @param options As for {@linkcode encodePng}.
 * @returns The PNG file bytes.
 * @throws {RangeError} if the size is not positive or does not match the data.
 * @example
 * ```ts
 * const options: PngEncoderPoolOptions = { workers: 2 }; // a private encoder, e.g. for tests
 * const own = new PngEncoderPool(options);
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
  return sharedPool().encode(image, options);
}

/** The process-wide pool, created on first use; a runtime's close terminates it. */
function sharedPool(): PngEncoderPool {
  if (!shared) {
    shared = new PngEncoderPool();
    onRelease(closePngWorker);
  }
  return shared;
}

/**
 * Starts the process-wide encoder Workers ahead of their first use (optional: the first encode
 * starts them anyway, and encodes on this thread meanwhile).
 *
 * @returns Resolves true once one can encode, false if none can start.
 */
export function startPngWorker(): Promise<boolean> {
  return sharedPool().start();
}

/** The process-wide encoder pool's state, or "none" before first use and after close. */
export function pngWorkerState(): PngWorkerState | "none" {
  return shared?.state ?? "none";
}

/** Terminates the process-wide encoder Workers, if any; the next encode creates new ones. */
export function closePngWorker(): void {
  shared?.close();
  shared = null;
}
