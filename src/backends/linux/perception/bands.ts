/**
 * Splitting a screenshot into horizontal bands recognized in parallel, one engine
 * per band. Cuts fall on quiet rows (no text edges) near the point that splits the
 * text edges evenly, and bands overlap, so a word is never read in halves: each band
 * keeps only the words whose centre lies in its own part. Every band is trimmed to the
 * columns and rows that hold any edge at all (plus a margin): an empty desktop around
 * one window costs the engine nothing.
 *
 * @module
 */
import type { GreyImage } from "../../../lib/image/grey.ts";

/**
 * One band: rows `[top, bottom)` of columns `[left, right)` are recognized; words
 * centred in rows `[keepTop, keepBottom)` are kept.
 */
export interface Band {
  top: number;
  bottom: number;
  left: number;
  right: number;
  keepTop: number;
  keepBottom: number;
}

/** Rows each band reads beyond its own part: taller than any UI text line. */
export const BAND_OVERLAP = 48;
/** How far a cut may move from the even split to land on a quiet row. */
const CUT_SEARCH = 64;
/** A luma step between neighbours that counts as an edge. */
const EDGE_STEP = 40;
/** Blank pixels kept around the edges when trimming (the engine wants some background around text). */
const TRIM_MARGIN = 16;

/**
 * Plans up to `count` bands with about the same amount of text edges each. Images too
 * short to split, and `count` 1, give one band; a blank image gives none.
 */
export function planBands(image: GreyImage, count: number): Band[] {
  const { width, height, data } = image;
  const rowInk = new Float64Array(height);
  const columnInk = new Uint32Array(width);
  let total = 0;
  for (let y = 0; y < height; y++) {
    let edges = 0;
    const row = y * width;
    for (let x = 1; x < width; x++) {
      const step = data[row + x] - data[row + x - 1];
      if (step > EDGE_STEP || step < -EDGE_STEP) {
        edges++;
        columnInk[x]++;
      }
    }
    rowInk[y] = edges;
    total += edges;
  }
  if (total === 0) return [];
  const left = Math.max(0, columnInk.findIndex((n) => n > 0) - 1 - TRIM_MARGIN);
  const right = Math.min(width, columnInk.findLastIndex((n) => n > 0) + 1 + TRIM_MARGIN);
  const cuts: number[] = [];
  if (count > 1 && height >= count * 4 * BAND_OVERLAP) {
    let running = 0;
    let y = 0;
    for (let part = 1; part < count; part++) {
      const target = total * part / count;
      while (y < height && running + rowInk[y] < target) running += rowInk[y++];
      cuts.push(quietRow(rowInk, y, cuts.at(-1) ?? 0));
    }
  }
  const edges = [0, ...cuts, height];
  const bands: Band[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const keepTop = edges[i], keepBottom = edges[i + 1];
    if (keepBottom <= keepTop) continue;
    const first = Math.max(0, keepTop - BAND_OVERLAP), last = Math.min(height, keepBottom + BAND_OVERLAP);
    let top = first, bottom = last;
    while (top < bottom && rowInk[top] === 0) top++;
    while (bottom > top && rowInk[bottom - 1] === 0) bottom--;
    if (top === bottom) continue;
    top = Math.max(first, top - TRIM_MARGIN);
    bottom = Math.min(last, bottom + TRIM_MARGIN);
    bands.push({ top, bottom, left, right, keepTop, keepBottom });
  }
  return bands;
}

/** The row with the fewest edges within {@linkcode CUT_SEARCH} of `near`, nearest first on ties. */
function quietRow(ink: Float64Array, near: number, floor: number): number {
  let best = near, bestInk = Infinity;
  for (let d = 0; d <= CUT_SEARCH; d++) {
    for (const row of d === 0 ? [near] : [near - d, near + d]) {
      if (row <= floor || row >= ink.length) continue;
      if (ink[row] < bestInk) {
        best = row;
        bestInk = ink[row];
      }
    }
  }
  return best;
}
