/**
 * PNG (and JPEG) encoder benchmark on 1920x1080 screenshots.
 *
 * Images: "ui" is the X display at $DISPLAY (default :77, where gtk3-widget-factory runs)
 * captured with ImageMagick `import`, or a rendered UI-like page when no display answers;
 * "photo" is the same UI composited over a plasma wallpaper (a worst case for PNG).
 *
 * For each variant it prints the median wall time over 20 runs, the median of the longest
 * event-loop stall seen by a 1 ms interval during a run, and the output size.
 *
 * Variants that are not shipped (worker and FFI pigz-style bands) live here only, to keep
 * the measurement behind the choices in src/lib/image/png.ts reproducible.
 *
 * Usage: deno run -A scripts/bench_png.ts [--runs 20] [--display :77]
 *
 * @module
 */
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { openLibrary } from "../ffi/_open.ts";
import type { RawImage } from "../src/ports/screen.ts";
import { encodePng, type EncodePngOptions } from "../src/lib/image/png.ts";
import { PngRowFilter } from "../src/lib/image/_png_filter.ts";
import { encodeJpeg } from "../src/lib/image/jpeg.ts";

const WIDTH = 1920, HEIGHT = 1080;

async function run(command: string, args: string[], stdin?: Uint8Array): Promise<Uint8Array | null> {
  try {
    const child = new Deno.Command(command, {
      args,
      stdin: stdin ? "piped" : "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    if (stdin) {
      const writer = child.stdin.getWriter();
      await writer.write(stdin);
      await writer.close();
    }
    const { success, stdout } = await child.output();
    return success ? stdout : null;
  } catch {
    return null;
  }
}

async function loadImages(display: string): Promise<Record<string, RawImage>> {
  const size = `${WIDTH}x${HEIGHT}`;
  let ui = await run("import", ["-display", display, "-window", "root", "-depth", "8", "rgba:-"]);
  let source = `display ${display}`;
  if (ui?.length !== WIDTH * HEIGHT * 4) {
    source = "rendered";
    const lines = Array.from(
      { length: 40 },
      (_, i) => `Line ${i}: The quick brown fox jumps over the lazy dog 0123456789`,
    )
      .join("\n");
    ui = await run("convert", [
      "-size",
      size,
      "gradient:#f6f5f4-#deddda",
      "-fill",
      "#3584e4",
      "-draw",
      "rectangle 0,0 1920,40",
      "-fill",
      "white",
      "-draw",
      "rectangle 300,80 1600,1000",
      "-fill",
      "black",
      "-pointsize",
      "14",
      "-annotate",
      "+320+110",
      lines,
      "-depth",
      "8",
      "rgba:-",
    ]);
  }
  if (ui?.length !== WIDTH * HEIGHT * 4) {
    throw new Error("Cannot capture or render a test image: is ImageMagick installed?");
  }
  const photo = await run("convert", [
    "-size",
    size,
    "-seed",
    "7",
    "plasma:steelblue-navy",
    "-blur",
    "0x2",
    "(",
    "-size",
    size,
    "-depth",
    "8",
    "rgba:-",
    "-transparent",
    "black",
    ")",
    "-compose",
    "over",
    "-composite",
    "-alpha",
    "on",
    "-channel",
    "A",
    "-evaluate",
    "set",
    "100%",
    "+channel",
    "-depth",
    "8",
    "rgba:-",
  ], ui);
  console.log(`ui image: ${source}`);
  const images: Record<string, RawImage> = { ui: { width: WIDTH, height: HEIGHT, data: ui } };
  if (photo?.length === WIDTH * HEIGHT * 4) images.photo = { width: WIDTH, height: HEIGHT, data: photo };
  return images;
}

// --- measurement -----------------------------------------------------------------------

type Variant = [name: string, run: () => Promise<number>];

/**
 * Runs the variants round-robin (so background load hits them all alike) and returns,
 * per variant, the median time, the median longest stall of a 1 ms interval, and the size.
 */
async function measure(
  runs: number,
  variants: Variant[],
): Promise<{ ms: number; stall: number; bytes: number }[]> {
  const times = variants.map((): number[] => []), stalls = variants.map((): number[] => []);
  const bytes = variants.map(() => 0);
  let lastTick = performance.now(), longestStall = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - lastTick);
    lastTick = now;
  }, 1);
  try {
    for (let round = 0; round < runs + 2; round++) {
      for (const [i, [, run]] of variants.entries()) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        lastTick = performance.now();
        longestStall = 0;
        const start = performance.now();
        bytes[i] = await run();
        const elapsed = performance.now() - start;
        const tail = performance.now() - lastTick; // a stall that ran to the end of the run
        if (round >= 2) times[i].push(elapsed), stalls[i].push(Math.max(longestStall, tail));
      }
    }
  } finally {
    clearInterval(ticker);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return variants.map((_, i) => ({ ms: median(times[i]), stall: median(stalls[i]), bytes: bytes[i] }));
}

function report(
  image: string,
  variants: Variant[],
  results: { ms: number; stall: number; bytes: number }[],
): void {
  for (const [i, [name]] of variants.entries()) {
    const { ms, stall, bytes } = results[i];
    console.log(
      `${image.padEnd(6)} ${name.padEnd(42)} ${ms.toFixed(1).padStart(7)} ms  stall ${
        stall.toFixed(1).padStart(6)
      } ms  ${String(bytes).padStart(9)} B`,
    );
  }
}

// --- variants that are not shipped -----------------------------------------------------

function filterWhole(image: RawImage): Uint8Array {
  const words = new Int32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
  const rows = new PngRowFilter(words, image.width, 3, "up");
  const out = new Uint8Array(rows.stride * image.height);
  rows.filterRows(0, image.height, out);
  return out;
}

const WORKER_SOURCE = `
import zlib from "node:zlib";
function adler32(d) {
  let a = 1, b = 0, i = 0;
  const n = d.length;
  while (i < n) {
    const end = Math.min(i + 5552, n);
    for (; i < end; i++) { a += d[i]; b += a; }
    a %= 65521; b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
self.onmessage = (e) => {
  const { id, data, dictionary, level, last } = e.data;
  const options = { level, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH };
  if (dictionary) options.dictionary = dictionary;
  const out = new Uint8Array(zlib.deflateRawSync(data, options));
  self.postMessage({ id, out, adler: adler32(data) }, [out.buffer]);
};`;

function adler32Combine(a1: number, a2: number, len2: number): number {
  const BASE = 65521;
  const rem = len2 % BASE;
  let sum1 = a1 & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (a2 & 0xffff) + BASE - 1;
  sum2 += ((a1 >>> 16) & 0xffff) + ((a2 >>> 16) & 0xffff) + BASE - rem;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum2 >= BASE << 1) sum2 -= BASE << 1;
  if (sum2 >= BASE) sum2 -= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** Joins raw deflate bands into a zlib stream: header, bands, combined adler32. */
function zlibStream(bands: { out: Uint8Array; adler: number; length: number }[]): Uint8Array {
  let adler = 1;
  for (const band of bands) adler = adler32Combine(adler, band.adler, band.length);
  const out = new Uint8Array(6 + bands.reduce((n, b) => n + b.out.length, 0));
  out.set([0x78, 0x01]);
  let at = 2;
  for (const band of bands) out.set(band.out, at), at += band.out.length;
  new DataView(out.buffer).setUint32(at, adler);
  return out;
}

function splitBands(data: Uint8Array, count: number): { start: number; end: number }[] {
  const step = Math.ceil(data.length / count);
  return Array.from(
    { length: count },
    (_, k) => ({ start: k * step, end: Math.min(data.length, (k + 1) * step) }),
  );
}

class WorkerPool {
  readonly #workers: Worker[];
  readonly #pending = new Map<number, (value: { out: Uint8Array; adler: number }) => void>();
  #next = 0;
  constructor(size: number) {
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
    this.#workers = Array.from({ length: size }, () => new Worker(url, { type: "module" }));
    for (const worker of this.#workers) {
      worker.onmessage = (e) => {
        this.#pending.get(e.data.id)?.(e.data);
        this.#pending.delete(e.data.id);
      };
    }
  }
  deflate(slot: number, data: Uint8Array, dictionary: Uint8Array | undefined, level: number, last: boolean) {
    const id = this.#next++;
    return new Promise<{ out: Uint8Array; adler: number }>((resolve) => {
      this.#pending.set(id, resolve);
      this.#workers[slot % this.#workers.length].postMessage({ id, data, dictionary, level, last }, [
        data.buffer as ArrayBuffer,
      ]);
    });
  }
  close(): void {
    for (const worker of this.#workers) worker.terminate();
  }
}

async function workerBands(pool: WorkerPool, image: RawImage, count: number, level: number): Promise<number> {
  const filtered = filterWhole(image);
  const bands = await Promise.all(
    splitBands(filtered, count).map(({ start, end }, k) =>
      pool.deflate(
        k,
        filtered.slice(start, end),
        k > 0 ? filtered.slice(Math.max(0, start - 32768), start) : undefined,
        level,
        k === count - 1,
      ).then((r) => ({ ...r, length: end - start }))
    ),
  );
  return zlibStream(bands).length;
}

// System libz through nonblocking FFI calls (run on Deno's blocking thread pool).
const LIBZ_SYMBOLS = {
  // int deflateInit2_(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy,
  //                   const char *version, int stream_size)
  deflateInit2_: {
    parameters: ["buffer", "i32", "i32", "i32", "i32", "i32", "buffer", "i32"],
    result: "i32",
  },
  // int deflateSetDictionary(z_streamp strm, const Bytef *dictionary, uInt dictLength)
  deflateSetDictionary: { parameters: ["buffer", "buffer", "u32"], result: "i32" },
  // int deflate(z_streamp strm, int flush)
  deflate: { parameters: ["buffer", "i32"], result: "i32", nonblocking: true },
  // int deflateEnd(z_streamp strm)
  deflateEnd: { parameters: ["buffer"], result: "i32" },
  // uLong adler32(uLong adler, const Bytef *buf, uInt len)
  adler32: { parameters: ["u64", "buffer", "u32"], result: "u64", nonblocking: true },
  // const char *zlibVersion(void)
  zlibVersion: { parameters: [], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

const libz = openLibrary("z", ["libz.so.1", "libz.so", "libz.1.dylib"], LIBZ_SYMBOLS);

async function libzBand(input: Uint8Array, dictionary: Uint8Array | null, level: number, last: boolean) {
  const z = libz.symbols;
  const stream = new Uint8Array(112); // sizeof(z_stream) on LP64
  const view = new DataView(stream.buffer);
  const version = new TextEncoder().encode(Deno.UnsafePointerView.getCString(z.zlibVersion()!) + "\0");
  if (z.deflateInit2_(stream, level, 8, -15, 8, 0, version, 112) !== 0) {
    throw new Error("deflateInit2_ failed");
  }
  if (dictionary) z.deflateSetDictionary(stream, dictionary, dictionary.length);
  const out = new Uint8Array(input.length + (input.length >> 8) + 64);
  view.setBigUint64(0, BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(input))), true); // next_in
  view.setUint32(8, input.length, true); // avail_in
  view.setBigUint64(24, BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(out))), true); // next_out
  view.setUint32(32, out.length, true); // avail_out
  const [status, adler] = await Promise.all([
    z.deflate(stream, last ? 4 : 2),
    z.adler32(1n, input, input.length),
  ]);
  const produced = Number(view.getBigUint64(40, true)); // total_out
  z.deflateEnd(stream);
  if (status !== (last ? 1 : 0)) throw new Error(`deflate returned ${status}`);
  return { out: out.subarray(0, produced), adler: Number(adler), length: input.length };
}

async function libzBands(image: RawImage, count: number, level: number): Promise<number> {
  const filtered = filterWhole(image);
  const bands = await Promise.all(
    splitBands(filtered, count).map(({ start, end }, k) =>
      libzBand(
        filtered.subarray(start, end),
        k > 0 ? filtered.subarray(Math.max(0, start - 32768), start) : null,
        level,
        k === count - 1,
      )
    ),
  );
  return zlibStream(bands).length;
}

// --- main ------------------------------------------------------------------------------

const args = parseArgs({ options: { runs: { type: "string", default: "20" }, display: { type: "string" } } });
const runs = Number(args.values.runs);
const images = await loadImages(args.values.display ?? Deno.env.get("DISPLAY") ?? ":77");
const { Z_FILTERED, Z_RLE } = zlib.constants;

const shipped: [string, EncodePngOptions][] = [
  ["encodePng default (up, level 2)", {}],
  ["encodePng up level 1", { level: 1 }],
  ["encodePng up level 3", { level: 3 }],
  ["encodePng up level 6", { level: 6 }],
  ["encodePng up level 1 Z_RLE", { level: 1, strategy: Z_RLE }],
  ["encodePng up level 2 Z_FILTERED", { level: 2, strategy: Z_FILTERED }],
  ["encodePng none level 2", { filter: "none" }],
  ["encodePng sub level 2", { filter: "sub" }],
  ["encodePng paeth level 2", { filter: "paeth" }],
  ["encodePng adaptive level 2", { filter: "adaptive" }],
];

console.log(
  `median of ${runs} runs, 1920x1080, ${navigator.hardwareConcurrency} CPUs, Deno ${Deno.version.deno}`,
);
console.log("stall = longest event-loop stall during one encode (median over runs)");
for (const [name, image] of Object.entries(images)) {
  const variants: Variant[] = shipped.map((
    [label, options],
  ) => [label, async () => (await encodePng(image, options)).length]);
  variants.push(
    ["filter up only (the JS part)", () => Promise.resolve(filterWhole(image).length)],
    [
      "up + deflateSync level 2, one shot",
      () => Promise.resolve(zlib.deflateSync(filterWhole(image), { level: 2 }).length),
    ],
    ["up + async zlib.deflate level 2, one shot", () => {
      const filtered = filterWhole(image);
      return new Promise((resolve, reject) => {
        zlib.deflate(filtered, { level: 2 }, (error, out) => error ? reject(error) : resolve(out.length));
      });
    }],
  );
  const pool = new WorkerPool(2);
  await workerBands(pool, image, 2, 2); // start-up
  for (const bands of [2, 4]) {
    variants.push([`pigz ${bands} bands, 2 Workers, level 2`, () => workerBands(pool, image, bands, 2)]);
  }
  if (libz.available()) {
    for (const level of [1, 2]) {
      variants.push([`pigz 2 bands, FFI system libz, level ${level}`, () => libzBands(image, 2, level)]);
    }
  } else {
    console.log(`${name.padEnd(6)} FFI system libz: not available (needs --allow-ffi and libz)`);
  }
  variants.push(["encodeJpeg quality 80", async () => (await encodeJpeg(image, 80)).length]);
  try {
    report(name, variants, await measure(runs, variants));
  } finally {
    pool.close();
  }
}
