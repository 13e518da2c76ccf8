/**
 * The live view's pictures: while at least one viewer listens, the primary display is captured
 * every {@linkcode FRAME_INTERVAL_MS} and a JPEG (halved while wider than
 * {@linkcode FRAME_MAX_WIDTH}) goes out only when its pixels differ from the last frame sent.
 * The agent's calls come first: no look starts while a call runs or within
 * {@linkcode QUIET_MS} after one ended (so a burst of calls is not slowed), unless the view has
 * waited {@linkcode MAX_STALE_MS} for a look. A look that is under way when a call starts pauses
 * at its next step (the downscale and the JPEG encoder go a band at a time) until the call ends.
 * With no viewer nothing is captured.
 *
 * @module
 */
import { peekBgrx } from "../../lib/image/bgrx_image.ts";
import { cropRgba } from "../../lib/image/crop.ts";
import { encodeJpeg } from "../../lib/image/jpeg.ts";
import { base64 as toBase64 } from "../../kernel/result.ts";
import type { Backend } from "../../ports/backend.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";

/** Time between two looks at the screen while someone watches. */
export const FRAME_INTERVAL_MS = 80;
/** Quiet time after a call before the view looks (the agent's next call may be on its way). */
export const QUIET_MS = 60;
/** Longest a busy agent can hold off a look. */
export const MAX_STALE_MS = 1000;
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
  /** Looks paused for a call wait here; resolved when the calls end. */
  #quiet: { promise: Promise<void>; resolve: () => void } | null = null;
  #lastCallEnd = 0;
  #lastLook = 0;
  #lastPixels: Uint8Array | null = null;
  /** A buffer of the screen's size no frame holds any more, for the next capture. */
  #spare: Uint8Array | null = null;
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
    this.#quiet?.resolve();
    this.#quiet = null;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#lastPixels = null;
    this.#spare = null;
    this.#lastImage = null;
    this.#lastFrame = null;
  }

  /** A tool call started: looks wait until it ends. */
  callStarted(): void {
    this.#busyCalls++;
  }

  /** Resolves at once while no call runs, else when the running calls have ended. */
  #callsDone(): Promise<void> | void {
    if (this.#busyCalls === 0) return;
    if (!this.#quiet) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => resolve = r);
      this.#quiet = { promise, resolve };
    }
    return this.#quiet.promise;
  }

  /** A tool call ended: look soon (what it did is worth seeing), once the agent is quiet. */
  callEnded(): void {
    this.#busyCalls = Math.max(0, this.#busyCalls - 1);
    this.#lastCallEnd = performance.now();
    if (this.#busyCalls === 0 && this.#quiet) {
      this.#quiet.resolve();
      this.#quiet = null;
    }
    if (this.#busyCalls === 0 && this.#running) this.#schedule(QUIET_MS);
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
    // After the call's reply has gone out: nothing here may hold it up.
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      const bgrx = peekBgrx(image);
      // From the BGRX bytes when the frame has them: reading `image.data` would convert the whole screen.
      const crop = bgrx ? cropBgrx(bgrx, image.width, rect) : cropRgba(image, rect);
      return toBase64(await encodeJpeg(crop, QUALITY));
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
    const now = performance.now();
    const stale = now - this.#lastLook >= MAX_STALE_MS;
    const quietFor = now - this.#lastCallEnd;
    if (!stale && (this.#busyCalls > 0 || quietFor < QUIET_MS)) {
      // The agent is acting: look once it has been quiet for a moment (callEnded reschedules).
      if (this.#busyCalls === 0) this.#schedule(QUIET_MS - quietFor);
      else this.#schedule(MAX_STALE_MS - (now - this.#lastLook));
      return;
    }
    this.#lastLook = now;
    let delay = FRAME_INTERVAL_MS;
    try {
      await this.#capture();
      // Staleness counts from the end of a look: a slow look must not make the next one "overdue".
      this.#lastLook = performance.now();
      this.#lastError = null;
    } catch (error) {
      const message = `The desktop cannot be captured: ${(error as Error).message}`;
      // Said once per failure, not every look; the view keeps trying, more slowly.
      if (message !== this.#lastError) this.emit({ kind: "error", message });
      this.#lastError = message;
      delay = 1000;
    }
    if (this.#running && this.#timer === null) this.#schedule(delay);
  }

  async #capture(): Promise<void> {
    const displays = await this.backend.screen.displays();
    const display = displays.find((d) => d.primary) ?? displays[0];
    if (!display) throw new Error("no display is attached");
    // Into the spare buffer of the last look: a fresh screen-sized buffer costs its page faults.
    const image = await this.backend.screen.captureDisplay(display.id, {
      into: this.#spare ?? undefined,
      overlays: true,
    });
    if (!this.#running) return;
    const pixels = peekBgrx(image) ?? image.data;
    if (this.#lastPixels && samePixels(this.#lastPixels, pixels)) {
      if (pixels !== this.#lastPixels) this.#spare = pixels;
      return;
    }
    // The frame shown before becomes the next look's buffer (a thumbnail crops it right after a call,
    // long before the next look).
    this.#spare = this.#lastPixels !== pixels ? this.#lastPixels : null;
    this.#lastPixels = pixels;
    this.#lastImage = { image, bounds: display.bounds };
    const bgrx = peekBgrx(image);
    const yieldTo = () => this.#callsDone();
    let scaled: RawImage = image;
    if (image.width > FRAME_MAX_WIDTH && bgrx) {
      scaled = await halvePixels(bgrx, image.width, image.height, true, yieldTo);
      // A very large screen (5K, 8K) is halved again until it fits.
      while (scaled.width > FRAME_MAX_WIDTH) {
        scaled = await halvePixels(scaled.data, scaled.width, scaled.height, false, yieldTo);
      }
    }
    if (!this.#running) return;
    const jpeg = await encodeJpeg(scaled, QUALITY, { yieldTo });
    if (!this.#running) return;
    const frame: ViewFrame = {
      seq: ++this.#seq,
      jpeg: toBase64(jpeg),
      width: scaled.width,
      height: scaled.height,
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

/**
 * Pixels at half the width and height, as RGBA, each pixel the mean of a 2x2 block: one pass
 * over the output, several times cheaper than a general resize of the whole screen. `fromBgrx`
 * reads BGRX (a capture) and swaps to RGBA; otherwise the input is RGBA already. Goes a band of
 * rows at a time, awaiting `yieldTo` between bands.
 */
export async function halvePixels(
  pixels: Uint8Array,
  width: number,
  height: number,
  fromBgrx: boolean,
  yieldTo?: () => Promise<void> | void,
): Promise<RawImage> {
  const w = width >> 1, h = height >> 1;
  const out = new Uint8Array(w * h * 4);
  const stride = width * 4;
  const red = fromBgrx ? 2 : 0, blue = fromBgrx ? 0 : 2;
  for (let y = 0; y < h; y++) {
    if (y % HALVE_BAND_ROWS === HALVE_BAND_ROWS - 1) await yieldTo?.();
    const row0 = y * 2 * stride, row1 = row0 + stride;
    let o = y * w * 4;
    for (let x = 0; x < w; x++, o += 4) {
      const a = row0 + x * 8, b = row1 + x * 8;
      out[o] = (pixels[a + red] + pixels[a + 4 + red] + pixels[b + red] + pixels[b + 4 + red] + 2) >> 2;
      out[o + 1] = (pixels[a + 1] + pixels[a + 5] + pixels[b + 1] + pixels[b + 5] + 2) >> 2;
      out[o + 2] = (pixels[a + blue] + pixels[a + 4 + blue] + pixels[b + blue] + pixels[b + 4 + blue] + 2) >>
        2;
      out[o + 3] = 255;
    }
  }
  return { width: w, height: h, data: out };
}

/** Output rows of {@linkcode halvePixels} between two yields. */
const HALVE_BAND_ROWS = 64;

/** A rectangle of BGRX pixels (rows `width` pixels long) as RGBA. */
export function cropBgrx(bgrx: Uint8Array, width: number, rect: Rect): RawImage {
  const out = new Uint8Array(rect.width * rect.height * 4);
  for (let y = 0; y < rect.height; y++) {
    let i = ((rect.y + y) * width + rect.x) * 4, o = y * rect.width * 4;
    for (let x = 0; x < rect.width; x++, i += 4, o += 4) {
      out[o] = bgrx[i + 2];
      out[o + 1] = bgrx[i + 1];
      out[o + 2] = bgrx[i];
      out[o + 3] = 255;
    }
  }
  return { width: rect.width, height: rect.height, data: out };
}
