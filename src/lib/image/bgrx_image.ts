/**
 * Captured images that keep the X server's BGRX pixels until someone reads them as RGBA.
 *
 * An X11 capture at depth 24/32 arrives as BGRX words (memory bytes B G R X). Converting to
 * RGBA costs a JS pass over the image (about 3 ms per megapixel on the main thread), and the
 * PNG encoder then reads every pixel again. {@linkcode bgrxImage} returns a plain
 * {@linkcode RawImage} whose `data` is an own accessor that converts on first read, so every
 * consumer (resize, crop, JPEG, OCR, spread copies, tests) still sees RGBA, while the PNG
 * encoder takes the BGRX bytes first ({@linkcode lendBgrx}) and filters them directly (see
 * `_png_kernel.ts`), skipping the pass.
 *
 * @module
 */
import type { RawImage } from "../../ports/screen.ts";

interface BgrxState {
  bgrx: Uint8Array | null;
  rgba: Uint8Array | null;
  lent: boolean;
}

const states = new WeakMap<RawImage, BgrxState>();

/**
 * Wraps BGRX pixels as a {@linkcode RawImage} whose RGBA `data` is computed on first read.
 *
 * @param width Pixels per row.
 * @param height Rows.
 * @param bgrx Tightly packed BGRX bytes (`width * height * 4`); the image owns them from now on.
 * @returns The image. Reading `data` while the pixels are lent to the encoder throws an Error.
 * @throws {RangeError} if the size does not match the data.
 */
export function bgrxImage(width: number, height: number, bgrx: Uint8Array): RawImage {
  if (bgrx.length !== width * height * 4) {
    throw new RangeError(
      `A ${width}x${height} BGRX image needs ${width * height * 4} bytes, got ${bgrx.length}`,
    );
  }
  const state: BgrxState = { bgrx, rgba: null, lent: false };
  const image = { width, height } as RawImage;
  Object.defineProperty(image, "data", {
    enumerable: true,
    configurable: true,
    get(): Uint8Array {
      if (!state.rgba) {
        if (state.lent) {
          throw new Error("The image's pixels are being encoded off-thread; read data after the encode");
        }
        state.rgba = bgrxToRgba(state.bgrx!);
        state.bgrx = null;
      }
      return state.rgba;
    },
    set(rgba: Uint8Array) {
      state.rgba = rgba;
      state.bgrx = null;
      state.lent = false;
    },
  });
  states.set(image, state);
  return image;
}

/**
 * An image's BGRX bytes, to read on this thread, while its `data` has not been read.
 *
 * @param image Any image.
 * @returns The bytes, or null when the image is not from {@linkcode bgrxImage}, is RGBA already,
 *   or is lent.
 */
export function peekBgrx(image: RawImage): Uint8Array | null {
  const state = states.get(image);
  return state && !state.lent ? state.bgrx : null;
}

/**
 * Hands out an image's BGRX bytes (to be transferred to a Worker) until {@linkcode returnBgrx}.
 *
 * @param image Any image.
 * @returns The bytes, or null when the image is not from {@linkcode bgrxImage}, its `data` was
 *   already read (it is RGBA now), or its pixels are lent already.
 */
export function lendBgrx(image: RawImage): Uint8Array | null {
  const state = states.get(image);
  if (!state || state.lent || !state.bgrx) return null;
  state.lent = true;
  return state.bgrx;
}

/**
 * Gives lent BGRX pixels back to their image.
 *
 * @param image The image {@linkcode lendBgrx} was called on.
 * @param bgrx The same pixels, possibly in a new buffer after a round trip to a Worker.
 */
export function returnBgrx(image: RawImage, bgrx: Uint8Array): void {
  const state = states.get(image);
  if (!state?.lent) return;
  state.lent = false;
  state.bgrx = bgrx;
}

/**
 * `image.data.byteLength`, without converting an image from {@linkcode bgrxImage} (its RGBA
 * size is always `width * height * 4`) and without failing while its pixels are lent.
 *
 * @param image Any image.
 * @returns The size of the image's RGBA data in bytes.
 */
export function pixelByteLength(image: RawImage): number {
  return states.has(image) ? image.width * image.height * 4 : image.data.byteLength;
}

/**
 * Converts BGRX bytes (X11 ZPixmap at depth 24/32, little-endian) to RGBA with alpha 255.
 *
 * @param bgrx Pixels, 4 bytes each.
 * @returns A new RGBA array of the same length.
 */
export function bgrxToRgba(bgrx: Uint8Array): Uint8Array {
  const n = bgrx.length >> 2;
  const source = bgrx.byteOffset % 4 === 0
    ? new Uint32Array(bgrx.buffer, bgrx.byteOffset, n)
    : new Uint32Array(bgrx.slice().buffer, 0, n);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const p = source[i];
    // Memory bytes B G R X (little-endian 0xXXRRGGBB) become R G B A.
    out[i] = 0xff000000 | ((p & 0xff) << 16) | (p & 0xff00) | ((p >>> 16) & 0xff);
  }
  return new Uint8Array(out.buffer);
}
