/**
 * cursor.jsonl: the real pointer sampled about 30 times a second while recording, one
 * complete JSON line per sample (`{"t_ms":…,"x":…,"y":…}`), appended as it goes so a
 * crash loses at most the last sample.
 *
 * @module
 */
import { join } from "node:path";
import type { CursorPosition } from "../../ports/screen.ts";

/** Sampling period: about 30 Hz. */
export const CURSOR_SAMPLE_MS = 33;

/** Samples a pointer into `<dir>/cursor.jsonl` until stopped. */
export class CursorTrack {
  readonly #file: Deno.FsFile;
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #sinceMs: () => number;
  readonly #read: () => Promise<CursorPosition>;
  #count = 0;
  #busy = false;
  #writing: Promise<unknown> = Promise.resolve();
  #stopped = false;

  private constructor(file: Deno.FsFile, read: () => Promise<CursorPosition>, sinceMs: () => number) {
    this.#file = file;
    this.#read = read;
    this.#sinceMs = sinceMs;
    this.#timer = setInterval(() => this.#sample(), CURSOR_SAMPLE_MS);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  /**
   * Creates `<dir>/cursor.jsonl` (a new file: an existing one, or a link, is an error) and starts sampling.
   *
   * @param read Reads the pointer (the back end's `screen.cursorPosition`).
   * @param sinceMs Milliseconds since the recording started.
   */
  static async start(
    dir: string,
    read: () => Promise<CursorPosition>,
    sinceMs: () => number,
  ): Promise<CursorTrack> {
    const file = await Deno.open(join(dir, "cursor.jsonl"), { write: true, createNew: true });
    return new CursorTrack(file, read, sinceMs);
  }

  /** Samples written so far. */
  get sampleCount(): number {
    return this.#count;
  }

  /** Stops sampling, writes what is pending and closes the file. Idempotent. */
  async stop(): Promise<number> {
    if (this.#stopped) return this.#count;
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#writing;
    this.#file.close();
    return this.#count;
  }

  #sample(): void {
    if (this.#busy || this.#stopped) return;
    this.#busy = true;
    const t = this.#sinceMs();
    this.#read().then((p) => {
      if (this.#stopped) return;
      const line = new TextEncoder().encode(JSON.stringify({ t_ms: t, x: p.x, y: p.y }) + "\n");
      this.#writing = this.#writing.then(() => this.#file.write(line)).then(() => void this.#count++)
        .catch(() => {});
    }, () => {
      // No pointer this time (server busy or gone): skip the sample.
    }).finally(() => this.#busy = false);
  }
}
