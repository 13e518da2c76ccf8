/**
 * Splitting a screenshot into horizontal bands recognized in parallel, one engine
 * per band. Cuts fall on quiet rows (no text edges) near the point that splits the
 * text edges evenly, and bands overlap, so a word is never read in halves: each band
 * keeps only the words whose centre lies in its own part.
 *
 * @module
 */
import type { GreyImage } from "../../../core/image/grey.ts";

/** One band: rows `[top, bottom)` are recognized; words centred in `[keepTop, keepBottom)` are kept. */
export interface Band {
  top: number;
  bottom: number;
  keepTop: number;
  keepBottom: number;
}

/** Rows each band reads beyond its own part: taller than any UI text line. */
export const BAND_OVERLAP = 48;
/** How far a cut may move from the even split to land on a quiet row. */
const CUT_SEARCH = 64;
/** A luma step between neighbours that counts as an edge. */
const EDGE_STEP = 40;

/**
 * Plans up to `count` bands with about the same amount of text edges each. Images
 * too short to split, and `count` 1, give one band covering everything.
 */
export function planBands(image: GreyImage, count: number): Band[] {
  const { width, height, data } = image;
  const whole: Band[] = [{ top: 0, bottom: height, keepTop: 0, keepBottom: height }];
  if (count <= 1 || height < count * 4 * BAND_OVERLAP) return whole;
  const ink = new Float64Array(height);
  let total = 0;
  for (let y = 0; y < height; y++) {
    let edges = 0;
    const row = y * width;
    for (let x = 1; x < width; x++) {
      const step = data[row + x] - data[row + x - 1];
      if (step > EDGE_STEP || step < -EDGE_STEP) edges++;
    }
    ink[y] = edges;
    total += edges;
  }
  if (total === 0) return whole;
  const cuts: number[] = [];
  let running = 0;
  let y = 0;
  for (let part = 1; part < count; part++) {
    const target = total * part / count;
    while (y < height && running + ink[y] < target) running += ink[y++];
    cuts.push(quietRow(ink, y, cuts.at(-1) ?? 0));
  }
  const edges = [0, ...cuts, height];
  const bands: Band[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const keepTop = edges[i], keepBottom = edges[i + 1];
    if (keepBottom <= keepTop) continue;
    bands.push({
      top: Math.max(0, keepTop - BAND_OVERLAP),
      bottom: Math.min(height, keepBottom + BAND_OVERLAP),
      keepTop,
      keepBottom,
    });
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
