/**
 * Where two captures of one window differ: the last-resort evidence of an action's
 * effect. Pixels are compared as 32-bit words (the padding byte ignored); tiles that
 * changed on their own before the action (animations) can be masked out, and a change
 * no wider than a text caret is treated as a caret blinking.
 *
 * @module
 */
import type { Rect } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";
import { peekBgrx } from "./bgrx_image.ts";

/** Side of the square tiles a mask is made of, in pixels. */
export const TILE = 16;
/** Widest change, in pixels, still taken for a blinking caret. */
export const CARET_WIDTH = 3;

/** A capture's pixels as words, ready to compare. */
export interface PixelFrame {
  width: number;
  height: number;
  words: Uint32Array;
}

/** Tiles to ignore, row-major, one byte per {@linkcode TILE}-pixel tile. */
export interface TileMask {
  columns: number;
  rows: number;
  tiles: Uint8Array;
}

/**
 * The pixels of a capture as words, without converting a BGRX capture to RGBA. Two
 * frames of the same source compare correctly whatever their byte order. A capture's own
 * BGRX bytes (copied out of native memory into an array the image owns) are shared, not
 * copied: a fresh copy of a window's megabytes costs a page fault per 4 KiB, ~6 ms per
 * frame on a small VM. So the image must not be lent to an encoder afterwards.
 */
export function pixelFrame(image: RawImage): PixelFrame {
  const own = peekBgrx(image);
  if (own !== null && own.byteOffset % 4 === 0) {
    return {
      width: image.width,
      height: image.height,
      words: new Uint32Array(own.buffer, own.byteOffset, own.length >> 2),
    };
  }
  const bytes = own ?? image.data;
  // Other pixels may be a view of memory a later capture reuses: copied.
  const words = new Uint32Array(bytes.slice().buffer, 0, bytes.length >> 2);
  return { width: image.width, height: image.height, words };
}

/** An empty mask for frames of `frame`'s size. */
export function emptyMask(frame: PixelFrame): TileMask {
  const columns = Math.ceil(frame.width / TILE), rows = Math.ceil(frame.height / TILE);
  return { columns, rows, tiles: new Uint8Array(columns * rows) };
}

/**
 * Marks in `mask` every tile where `a` and `b` differ, and their neighbours (an
 * animation's next frame may spill into the next tile). Frames of another size mark
 * nothing.
 */
export function maskChanges(mask: TileMask, a: PixelFrame, b: PixelFrame): void {
  if (a.width !== b.width || a.height !== b.height) return;
  const changed = new Uint8Array(mask.tiles.length);
  for (let y = 0; y < a.height; y++) {
    const row = y * a.width, tileRow = Math.floor(y / TILE) * mask.columns;
    for (let x = 0; x < a.width; x++) {
      if (((a.words[row + x] ^ b.words[row + x]) & 0x00ffffff) !== 0) {
        changed[tileRow + Math.floor(x / TILE)] = 1;
        x = (Math.floor(x / TILE) + 1) * TILE - 1; // the rest of this tile's row is decided
      }
    }
  }
  for (let r = 0; r < mask.rows; r++) {
    for (let c = 0; c < mask.columns; c++) {
      if (!changed[r * mask.columns + c]) continue;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr, cc = c + dc;
          if (rr >= 0 && rr < mask.rows && cc >= 0 && cc < mask.columns) {
            mask.tiles[rr * mask.columns + cc] = 1;
          }
        }
      }
    }
  }
}

/**
 * The bounding box of the pixels that differ between `before` and `after` outside the
 * masked tiles; the whole frame when the size changed; null when nothing differs.
 */
export function changedBox(before: PixelFrame, after: PixelFrame, mask?: TileMask): Rect | null {
  if (before.width !== after.width || before.height !== after.height) {
    return { x: 0, y: 0, width: after.width, height: after.height };
  }
  let left = Infinity, top = Infinity, right = -1, bottom = -1;
  const { width, height } = after;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const maskRow = mask ? Math.floor(y / TILE) * mask.columns : 0;
    for (let x = 0; x < width; x++) {
      if (((before.words[row + x] ^ after.words[row + x]) & 0x00ffffff) === 0) continue;
      if (mask && mask.tiles[maskRow + Math.floor(x / TILE)]) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      bottom = y;
    }
  }
  return right < 0 ? null : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** True for a change no wider than a caret: a text cursor blinking, not the app reacting. */
export function isCaretBlink(box: Rect): boolean {
  return box.width <= CARET_WIDTH && box.height <= 64;
}
