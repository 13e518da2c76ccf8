/**
 * The live view's pictures: while at least one viewer listens, the primary display is captured
 * every {@linkcode FRAME_INTERVAL_MS} and a JPEG (scaled to at most {@linkcode FRAME_MAX_WIDTH}
 * wide) goes out only when its pixels differ from the last frame sent. A look is skipped while a
 * tool call runs, and one is taken as soon as it ends, so a viewer never competes with the
 * agent's own calls. With no viewer nothing is captured.
 *
 * @module
 */
import { peekBgrx } from "../../core/image/bgrx_image.ts";
import { cropRgba } from "../../core/image/crop.ts";
import { encodeJpeg } from "../../core/image/jpeg.ts";
import { fitWithin, resizeRgba } from "../../core/image/resize.ts";
import { base64 as toBase64 } from "../../core/result.ts";
import type { Backend, RawImage, Rect } from "../../platform/types.ts";

/** Time between two looks at the screen while someone watches. */
export const FRAME_INTERVAL_MS = 80;
/** Widest frame sent (the page scales it to its own size). */
export const FRAME_MAX_WIDTH = 1280;
/** Edge of a call's click-point thumbnail, in screen pixels. */
export const THUMBNAIL_EDGE = 120;
/** JPEG quality of frames and thumbnails. */
const QUALITY = 70;

/** One frame as it goes to the page. */
export interface ViewFrame {
  seq: number;
  /** JPEG, base64. */
  jpeg: string;
  width: number;
  height: number;
  /** The display's bounds in screen points (frame pixels map onto it linearly). */
  bounds: Rect;
  captured_at_ms: number;
}

/** What the feed tells its listener. */
export type FeedEvent =
  | { kind: "frame"; frame: ViewFrame }
  | { kind: "error"; message: string };

/** Captures while someone listens; tells the listener of each changed frame and of failures. */
export class FrameFeed {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #running = false;
  #busyCalls = 0;
  #pendingLook = false;
  #lastPixels: Uint8Array | null = null;
  #lastImage: { image: RawImage; bounds: Rect } | null = null;
  #lastFrame: ViewFrame | null = null;
  #lastError: string | null = null;
  #seq = 0;

  constructor(readonly backend: Backend, readonly emit: (event: FeedEvent) => void) {}

  /** The newest frame sent, for a viewer that just connected. */
  get lastFrame(): ViewFrame | null {
    return this.#lastFrame;
  }

  /** Starts looking (the first viewer connected). Idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0);
  }

  /** Stops looking and forgets the pixels (the last viewer left). */
  stop(): void {
    this.#running = false;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#lastPixels = null;
    this.#lastImage = null;
    this.#lastFrame = null;
  }

  /** A tool call started: looks wait until it ends. */
  callStarted(): void {
    this.#busyCalls++;
  }

  /** A tool call ended: look now (what it did is worth seeing at once). */
  callEnded(): void {
    this.#busyCalls = Math.max(0, this.#busyCalls - 1);
    if (this.#busyCalls === 0 && this.#running && this.#pendingLook) this.#schedule(0);
  }

  /**
   * A JPEG of the screen around `point` (screen points) from the newest frame captured, or
   * null when none is held or the point is off it.
   */
  async thumbnail(point: { x: number; y: number }): Promise<string | null> {
    const held = this.#lastImage;
    if (!held) return null;
    const { image, bounds } = held;
    const sx = image.width / bounds.width, sy = image.height / bounds.height;
    const cx = Math.round((point.x - bounds.x) * sx), cy = Math.round((point.y - bounds.y) * sy);
    if (cx < 0 || cy < 0 || cx >= image.width || cy >= image.height) return null;
    const half = THUMBNAIL_EDGE / 2;
    const x = Math.max(0, Math.min(image.width - THUMBNAIL_EDGE, cx - half));
    const y = Math.max(0, Math.min(image.height - THUMBNAIL_EDGE, cy - half));
    const rect = {
      x,
      y,
      width: Math.min(THUMBNAIL_EDGE, image.width),
      height: Math.min(THUMBNAIL_EDGE, image.height),
    };
    try {
      return toBase64(await encodeJpeg(cropRgba(image, rect), QUALITY));
    } catch {
      return null;
    }
  }

  #schedule(ms: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#look();
    }, ms);
  }

  async #look(): Promise<void> {
    if (!this.#running) return;
    if (this.#busyCalls > 0) {
      // Never compete with a call: look again the moment it ends.
      this.#pendingLook = true;
      return;
    }
    this.#pendingLook = false;
    let delay = FRAME_INTERVAL_MS;
    try {
      await this.#capture();
      this.#lastError = null;
    } catch (error) {
      const message = `The desktop cannot be captured: ${(error as Error).message}`;
      // Said once per failure, not every look; the view keeps trying, more slowly.
      if (message !== this.#lastError) this.emit({ kind: "error", message });
      this.#lastError = message;
      delay = 1000;
    }
    if (this.#running && this.#timer === null && !this.#pendingLook) this.#schedule(delay);
  }

  async #capture(): Promise<void> {
    const displays = await this.backend.screen.displays();
    const display = displays.find((d) => d.primary) ?? displays[0];
    if (!display) throw new Error("no display is attached");
    const image = await this.backend.screen.captureDisplay(display.id);
    if (!this.#running) return;
    const pixels = peekBgrx(image) ?? image.data;
    if (this.#lastPixels && samePixels(this.#lastPixels, pixels)) return;
    this.#lastPixels = pixels;
    this.#lastImage = { image, bounds: display.bounds };
    const size = fitWithin(image.width, image.height, FRAME_MAX_WIDTH);
    const scaled = size.width === image.width ? image : resizeRgba(image, size.width, size.height);
    const jpeg = await encodeJpeg(scaled, QUALITY);
    if (!this.#running) return;
    const frame: ViewFrame = {
      seq: ++this.#seq,
      jpeg: toBase64(jpeg),
      width: size.width,
      height: size.height,
      bounds: display.bounds,
      captured_at_ms: Date.now(),
    };
    this.#lastFrame = frame;
    this.emit({ kind: "frame", frame });
  }
}

/** True when two captures hold the same bytes (compared a 32-bit word at a time where aligned). */
export function samePixels(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  if (a.byteLength % 4 === 0 && a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const wa = new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);
    const wb = new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    for (let i = 0; i < wa.length; i++) if (wa[i] !== wb[i]) return false;
    return true;
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
