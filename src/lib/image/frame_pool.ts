/**
 * Buffers of window frames nobody reads any more, for the next captures: a witness compares
 * several captures of one window per action, and a new buffer costs a page fault per 4 KiB
 * (~6 ms for a 560x720 frame on these machines; refilling a kept one ~0.03 ms).
 *
 * @module
 */
import type { PixelFrame } from "./pixel_change.ts";

/** The most bytes kept for reuse (two 1920x1080 frames). */
const MAX_KEPT_BYTES = 2 * 1920 * 1080 * 4;

/** Spare frame buffers: {@linkcode take} one to capture into, {@linkcode give} a frame back when done with it. */
export class FramePool {
  readonly #spare: Uint8Array[] = [];

  /** A buffer to capture into (the capture uses it only when it has exactly the frame's size), if any. */
  take(): Uint8Array | undefined {
    return this.#spare.pop();
  }

  /**
   * Gives back the pixels of `frame`: the caller must not read the frame again. Ignored when
   * the pool is full or already holds them.
   */
  give(frame: PixelFrame | null): void {
    if (!frame) return;
    const bytes = new Uint8Array(frame.words.buffer, frame.words.byteOffset, frame.words.byteLength);
    if (this.#spare.some((spare) => spare.buffer === bytes.buffer)) return;
    const kept = this.#spare.reduce((total, spare) => total + spare.length, 0);
    if (kept + bytes.length > MAX_KEPT_BYTES) return;
    this.#spare.push(bytes);
  }

  /** Buffers kept. */
  get size(): number {
    return this.#spare.length;
  }
}
