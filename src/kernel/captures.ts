/**
 * Registered captures: the pixel space of each screenshot the driver handed out,
 * so later input in screenshot pixels converts to screen points in one place.
 *
 * @module
 */
import type { Rect } from "../ports/geometry.ts";
import type { RawImage } from "../ports/screen.ts";
import { pixelByteLength } from "../lib/image/bgrx_image.ts";

/** Captures kept before the oldest is forgotten (env-v1.md: at least 16). */
export const MAX_CAPTURES = 32;

/** Captures whose pixels are kept (parse_visual_regions reads exactly those pixels). */
export const PIXEL_CACHE_ENTRIES = 8;
/** Bytes of kept pixels before the oldest go (a 1920x1080 RGBA capture is about 8 MB). */
export const PIXEL_CACHE_BYTES = 48 * 1024 * 1024;

/** Geometry of one capture. */
export interface Capture {
  readonly id: string;
  readonly kind: "window" | "display" | "zoom";
  readonly windowId: number | null;
  readonly displayId: string;
  /** The captured area in screen points at capture time. */
  readonly bounds: Rect;
  /** For window and zoom captures: the window's origin at capture time (pixels are window-local). */
  readonly windowOrigin?: { x: number; y: number };
  /** The whole window or display the area was cut from, when a region of it was captured. */
  readonly sourceBounds?: Rect;
  /** Encoded image size (after any downscale). */
  readonly imageWidth: number;
  readonly imageHeight: number;
  readonly sessionId: string;
  readonly capturedAt: number;
  /**
   * Window captures: the scale (pixels per point) of the session's previous screenshot of
   * the window when it differs from this one's; pixels taken from that one would land elsewhere.
   */
  readonly previousScale?: number;
}

/**
 * Keeps recent captures by id and the latest per session and window, and the pixels
 * of the last few (memory-bounded) so a capture can be parsed exactly as it was taken.
 */
export class CaptureRegistry {
  readonly #byId = new Map<string, Capture>();
  /** Pixels by capture id, oldest first. */
  readonly #pixels = new Map<string, RawImage>();
  #pixelBytes = 0;

  /** Registers a capture and returns it with a fresh id. */
  register(capture: Omit<Capture, "id" | "capturedAt" | "previousScale">): Capture {
    const id = `c${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const full: Capture = { ...capture, id, capturedAt: Date.now() };
    if (capture.kind === "window" && capture.windowId !== null) {
      const previous = this.latestForWindow(capture.sessionId, capture.windowId);
      const scale = (c: { imageWidth: number; bounds: Rect }) => c.imageWidth / c.bounds.width;
      if (previous && Math.abs(scale(previous) - scale(capture)) > 0.005) {
        Object.assign(full, { previousScale: scale(previous) });
      }
    }
    this.#byId.set(id, full);
    while (this.#byId.size > MAX_CAPTURES) {
      const oldest = this.#byId.keys().next().value as string;
      this.#byId.delete(oldest);
      this.#dropPixels(oldest);
    }
    return full;
  }

  /**
   * Keeps the pixels of a registered capture (the image exactly as handed out, after
   * any downscale). The oldest pixels go first once more than {@linkcode PIXEL_CACHE_ENTRIES}
   * or {@linkcode PIXEL_CACHE_BYTES} are held; the newest are always kept.
   */
  keepPixels(id: string, image: RawImage): void {
    if (!this.#byId.has(id)) return;
    this.#dropPixels(id);
    this.#pixels.set(id, image);
    this.#pixelBytes += pixelByteLength(image); // without converting a BGRX capture
    while (
      this.#pixels.size > 1 &&
      (this.#pixels.size > PIXEL_CACHE_ENTRIES || this.#pixelBytes > PIXEL_CACHE_BYTES)
    ) {
      this.#dropPixels(this.#pixels.keys().next().value as string);
    }
  }

  /** The kept pixels of a capture, or undefined once they were evicted (or never kept). */
  pixels(id: string): RawImage | undefined {
    return this.#pixels.get(id);
  }

  #dropPixels(id: string): void {
    const image = this.#pixels.get(id);
    if (!image) return;
    this.#pixels.delete(id);
    this.#pixelBytes -= pixelByteLength(image);
  }

  /** The latest zoom of a window taken in a session. */
  latestZoom(sessionId: string, windowId: number): Capture | undefined {
    let found: Capture | undefined;
    for (const capture of this.#byId.values()) {
      if (capture.kind === "zoom" && capture.sessionId === sessionId && capture.windowId === windowId) {
        found = capture;
      }
    }
    return found;
  }

  /** Forgets every capture of an ended session. */
  dropSession(sessionId: string): void {
    for (const [id, capture] of this.#byId) {
      if (capture.sessionId !== sessionId) continue;
      this.#byId.delete(id);
      this.#dropPixels(id);
    }
  }

  /** A capture by id. */
  get(id: string): Capture | undefined {
    return this.#byId.get(id);
  }

  /** The latest display capture taken in a session. */
  latestDisplay(sessionId: string, displayId: string): Capture | undefined {
    let found: Capture | undefined;
    for (const capture of this.#byId.values()) {
      if (capture.kind === "display" && capture.sessionId === sessionId && capture.displayId === displayId) {
        found = capture;
      }
    }
    return found;
  }

  /** The latest full-window screenshot of a window taken in a session (zooms excluded). */
  latestForWindow(sessionId: string, windowId: number): Capture | undefined {
    let found: Capture | undefined;
    for (const capture of this.#byId.values()) {
      if (capture.kind === "window" && capture.sessionId === sessionId && capture.windowId === windowId) {
        found = capture;
      }
    }
    return found;
  }
}

/**
 * Converts a pixel of a capture to a screen point. The one place screenshot
 * pixels become screen coordinates.
 */
export function captureToScreen(
  capture: Pick<Capture, "bounds" | "imageWidth" | "imageHeight">,
  x: number,
  y: number,
): { x: number; y: number } {
  const sx = capture.bounds.width / capture.imageWidth;
  const sy = capture.bounds.height / capture.imageHeight;
  return { x: Math.round(capture.bounds.x + x * sx), y: Math.round(capture.bounds.y + y * sy) };
}
