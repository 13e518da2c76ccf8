/**
 * Control-like boxes: a cheap local heuristic that finds the frame drawn around a
 * label (buttons, entries, combo boxes, tabs and header cells with a border).
 *
 * From a text region it walks outwards over the label's background, left and right
 * across the label's rows, then up and down across the found width, and accepts a box
 * only when each walk ends on a line that crosses the whole span (a border, at least
 * {@linkcode BORDER_SHARE} of its pixels off the background) within reach: at most
 * {@linkcode REACH_X_HEIGHTS} text heights sideways and {@linkcode REACH_Y_HEIGHTS}
 * up or down. Anything else on the way (an icon, another label, a check box) ends the
 * walk without a box.
 *
 * What it does not find: controls without text (icon-only buttons), frameless controls
 * (flat buttons, links, plain labels), and frames whose border differs from the
 * background by less than {@linkcode BACKGROUND_TOLERANCE} grey levels.
 *
 * @module
 */
import type { Rect } from "../../ports/geometry.ts";
import type { GreyImage } from "../../lib/image/grey.ts";

/** Grey levels a background pixel may differ from the label's background (gradients, noise). */
export const BACKGROUND_TOLERANCE = 16;
/** Share of a line's pixels off the background for the line to count as a border. */
export const BORDER_SHARE = 0.8;
/** Share above which a line that is no border is clutter (ends the walk without a box). */
const CLUTTER_SHARE = 0.2;
/** Sideways reach in text heights (wide buttons centre short labels; entries start them at the left). */
export const REACH_X_HEIGHTS = 24;
/** Reach up and down in text heights. */
export const REACH_Y_HEIGHTS = 2;
/**
 * Lines this close to the label are skipped: the engine's boxes come from its binarized
 * image and leave out the lighter anti-aliased edge of the glyphs.
 */
const GLYPH_HALO = 2;

/**
 * The frame around a label, including its border lines, or null.
 *
 * @param image The screenshot in grey.
 * @param text The label's bounds in the same pixels.
 */
export function controlBox(image: GreyImage, text: Rect): Rect | null {
  const h = Math.max(1, text.height);
  const background = backgroundAround(image, text);
  if (background === null) return null;
  const reachX = Math.max(24, Math.round(REACH_X_HEIGHTS * h));
  const reachY = Math.max(6, Math.round(REACH_Y_HEIGHTS * h));
  const rows = { from: text.y, to: text.y + text.height };
  const left = walk(image, background, "column", text.x - 1 - GLYPH_HALO, -1, reachX, rows);
  const right = walk(image, background, "column", text.x + text.width + GLYPH_HALO, 1, reachX, rows);
  if (left === null || right === null) return null;
  const columns = { from: left + 1, to: right };
  const top = walk(image, background, "row", text.y - 1 - GLYPH_HALO, -1, reachY, columns);
  const bottom = walk(image, background, "row", text.y + text.height + GLYPH_HALO, 1, reachY, columns);
  if (top === null || bottom === null) return null;
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** Median grey of the ring just outside the glyph halo; null when the ring is off the image. */
function backgroundAround(image: GreyImage, text: Rect): number | null {
  const d = GLYPH_HALO + 1;
  const x0 = text.x - d, y0 = text.y - d, x1 = text.x + text.width - 1 + d, y1 = text.y + text.height - 1 + d;
  if (x0 < 0 || y0 < 0 || x1 >= image.width || y1 >= image.height) return null;
  const values: number[] = [];
  for (let x = x0; x <= x1; x++) values.push(grey(image, x, y0), grey(image, x, y1));
  for (let y = y0 + 1; y < y1; y++) values.push(grey(image, x0, y), grey(image, x1, y));
  values.sort((a, b) => a - b);
  return values[values.length >> 1];
}

/**
 * Steps from `start` by `step` over lines (columns spanning `span` rows, or rows
 * spanning `span` columns); the first border line's coordinate, or null on clutter,
 * the image edge or the end of reach.
 */
function walk(
  image: GreyImage,
  background: number,
  line: "column" | "row",
  start: number,
  step: 1 | -1,
  reach: number,
  span: { from: number; to: number },
): number | null {
  const length = span.to - span.from;
  if (length <= 0) return null;
  const limit = line === "column" ? image.width : image.height;
  for (let k = 0, at = start; k < reach; k++, at += step) {
    if (at < 0 || at >= limit) return null;
    let off = 0;
    for (let i = span.from; i < span.to; i++) {
      const value = line === "column" ? grey(image, at, i) : grey(image, i, at);
      if (Math.abs(value - background) > BACKGROUND_TOLERANCE) off++;
    }
    const share = off / length;
    if (share >= BORDER_SHARE) return k === 0 ? null : at;
    if (share > CLUTTER_SHARE) return null;
  }
  return null;
}

function grey(image: GreyImage, x: number, y: number): number {
  return image.data[y * image.width + x];
}
