/**
 * Text recognition with libtesseract: one initialised engine per band, bands read in
 * parallel on Deno's blocking threads (nonblocking `TessBaseAPIRecognize`), words
 * grouped into the lines Tesseract found.
 *
 * Speed (1920x1080 desktop, 2 cores): the page is read in sparse-text mode (PSM 11: UI
 * text is scattered labels, not paragraphs) on the greyscale image at native scale (a
 * 2x downscale loses most UI labels), with the dictionaries off (labels are not prose),
 * OpenMP limited to one thread per engine (libtesseract's own OpenMP teams oversubscribe
 * small machines: one page took 4-5 s instead of about 1 s of CPU), and the page split
 * into horizontal bands read in parallel.
 *
 * @module
 */
import { unwrapPointer, unwrapZero } from "../../../../ffi/_errors.ts";
import { cstr, readCString } from "../../../../ffi/_c.ts";
import { OcrEngineMode, PageIteratorLevel, PageSegMode, tesseract } from "../../../../ffi/linux/tesseract.ts";
import { DriverError } from "../../../ports/errors.ts";
import { type GreyImage, upscaleGrey2x } from "../../../lib/image/grey.ts";
import type { PerceivedLine, PerceivedWord } from "../../../ports/perception.ts";
import { type Band, planBands } from "./bands.ts";

/** Resolution told to Tesseract: X servers report 96 dpi, and screenshots are at native scale. */
const SCREEN_DPI = 96;
/**
 * Images up to this many pixels (a quarter of 1920x1080: a window, a zoom) are read at
 * twice their size: UI text is 9-13 px tall, below what the engine reads best, and
 * doubling it cut the fixture window's misread labels from 12 to 2 of 40 words for about
 * 1.8x the CPU, still less than one full-screen page.
 */
const UPSCALE_MAX_PIXELS = 1920 * 1080 / 4;

/** Set when an engine is initialised (init-only parameters must go through TessBaseAPIInit4). */
const INIT_VARIABLES: Record<string, string> = {
  // UI text is labels, names and numbers: no word lists to pull readings towards prose.
  load_system_dawg: "0",
  load_freq_dawg: "0",
  // Sauvola (local) thresholding: the global Otsu default splits a dark desktop from light windows and
  // loses most of their text; Sauvola reads dark-on-light and light-on-dark alike, for about 20% more CPU.
  thresholding_method: "2",
  // Tesseract's warnings ("Invalid resolution", "Empty page!!") are not the driver's log.
  debug_file: "/dev/null",
};

/** A recognition engine on one thread. Owns a TessBaseAPI; dispose ends and deletes it. */
class TesseractWorker implements Disposable {
  #handle: Deno.PointerObject | null;

  /** @throws {DriverError} `native_call_failed` when the language data cannot be loaded. */
  constructor(dataDir: string, language: string) {
    const s = tesseract.symbols;
    const handle = unwrapPointer("TessBaseAPICreate", s.TessBaseAPICreate());
    const names = Object.keys(INIT_VARIABLES).map(cstr);
    const values = Object.values(INIT_VARIABLES).map(cstr);
    const pointers = (list: Uint8Array<ArrayBuffer>[]) =>
      BigUint64Array.from(list, (bytes) => BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(bytes))));
    // UNSAFE: `names` and `values` stay referenced until Init4 returns; it copies the strings.
    const status = s.TessBaseAPIInit4(
      handle,
      cstr(dataDir),
      cstr(language),
      OcrEngineMode.LSTM_ONLY,
      null,
      0,
      pointers(names),
      pointers(values),
      BigInt(names.length),
      0,
    );
    if (status !== 0) s.TessBaseAPIDelete(handle);
    unwrapZero("TessBaseAPIInit4", status, `Tesseract could not load "${language}" from "${dataDir}"`, {
      hint: "reinstall tesseract-ocr-eng",
    });
    s.TessBaseAPISetPageSegMode(handle, PageSegMode.SPARSE_TEXT);
    this.#handle = handle;
  }

  /** Reads the rows of one band; words outside the band's own part are dropped. */
  async recognize(image: GreyImage, band: Band, scale: number): Promise<PerceivedLine[]> {
    const handle = this.#handle;
    if (!handle) throw new TypeError("The Tesseract worker was disposed");
    const s = tesseract.symbols;
    const width = band.right - band.left;
    // The band's rectangle, rows `image.width` bytes apart; SetImage copies it into the engine's own image.
    const pixels = image.data.subarray(
      band.top * image.width + band.left,
      (band.bottom - 1) * image.width + band.right,
    );
    s.TessBaseAPISetImage(handle, pixels, width, band.bottom - band.top, 1, image.width);
    s.TessBaseAPISetSourceResolution(handle, SCREEN_DPI * scale);
    try {
      const status = await s.TessBaseAPIRecognize(handle, null);
      unwrapZero("TessBaseAPIRecognize", status);
      return readLines(handle, band, scale);
    } finally {
      s.TessBaseAPIClear(handle);
    }
  }

  [Symbol.dispose](): void {
    if (!this.#handle) return;
    tesseract.symbols.TessBaseAPIEnd(this.#handle);
    tesseract.symbols.TessBaseAPIDelete(this.#handle);
    this.#handle = null;
  }
}

/**
 * Walks the recognized words of the last Recognize, grouped by text line, in the
 * pixels of the image before it was scaled up by `scale`.
 */
function readLines(handle: Deno.PointerObject, band: Band, scale: number): PerceivedLine[] {
  const s = tesseract.symbols;
  const iterator = s.TessBaseAPIGetIterator(handle);
  if (!iterator) return [];
  const lines: PerceivedLine[] = [];
  const box = [new Int32Array(1), new Int32Array(1), new Int32Array(1), new Int32Array(1)] as const;
  try {
    // Borrowed from the result iterator; not deleted separately.
    const page = s.TessResultIteratorGetPageIterator(iterator);
    let line: PerceivedWord[] | null = null;
    do {
      if (!line || s.TessPageIteratorIsAtBeginningOf(page, PageIteratorLevel.TEXTLINE)) {
        line = [];
        lines.push({ words: line });
      }
      const textPointer = s.TessResultIteratorGetUTF8Text(iterator, PageIteratorLevel.WORD);
      if (!textPointer) continue;
      const text = readCString(textPointer).trim();
      s.TessDeleteText(textPointer);
      if (!text) continue;
      if (!s.TessPageIteratorBoundingBox(page, PageIteratorLevel.WORD, ...box)) continue;
      const [left, top, right, bottom] = box.map((cell) => cell[0]);
      const centreY = band.top + (top + bottom) / 2;
      if (centreY < band.keepTop || centreY >= band.keepBottom) continue;
      const confidence = s.TessResultIteratorConfidence(iterator, PageIteratorLevel.WORD);
      const x0 = Math.floor((band.left + left) / scale), y0 = Math.floor((band.top + top) / scale);
      const x1 = Math.ceil((band.left + right) / scale), y1 = Math.ceil((band.top + bottom) / scale);
      line.push({
        text,
        bounds: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
        confidence: Math.max(0, Math.min(1, confidence / 100)),
      });
    } while (s.TessResultIteratorNext(iterator, PageIteratorLevel.WORD));
  } finally {
    s.TessResultIteratorDelete(iterator);
  }
  return lines.filter((l) => l.words.length > 0);
}

/**
 * Parallel Tesseract: up to `threads` engines, created on first use and kept (each
 * takes about 0.2 s and 30 MB to initialise). One page at a time; later calls queue.
 */
export class TesseractEngine {
  readonly #workers: TesseractWorker[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(readonly dataDir: string, readonly threads: number, readonly language = "eng") {}

  /** Recognizes a greyscale image; lines in reading order. */
  recognize(image: GreyImage, signal: AbortSignal): Promise<PerceivedLine[]> {
    const run = this.#queue.then(() => this.#recognize(image, signal));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #recognize(image: GreyImage, signal: AbortSignal): Promise<PerceivedLine[]> {
    if (this.#closed) throw new DriverError("aborted", "The perception engine was closed");
    // A started Recognize cannot be interrupted; an aborted call stops before it starts.
    signal.throwIfAborted();
    if (image.width === 0 || image.height === 0) return [];
    const scale = image.width * image.height <= UPSCALE_MAX_PIXELS ? 2 : 1;
    const read = scale === 2 ? upscaleGrey2x(image) : image;
    const bands = planBands(read, this.threads);
    while (this.#workers.length < bands.length) {
      this.#workers.push(new TesseractWorker(this.dataDir, this.language));
    }
    const parts = await Promise.all(bands.map((band, i) => this.#workers[i].recognize(read, band, scale)));
    return parts.flat().sort((a, b) =>
      a.words[0].bounds.y - b.words[0].bounds.y || a.words[0].bounds.x - b.words[0].bounds.x
    );
  }

  /** Waits for the page in progress, then ends every engine. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    for (const worker of this.#workers) worker[Symbol.dispose]();
    this.#workers.length = 0;
  }
}
