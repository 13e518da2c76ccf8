/**
 * Text regions from recognized lines: low-confidence and symbol-only readings dropped
 * (icons read as "©" or "|__|"), and a line split where a gap wider than its text is
 * tall separates two labels (two buttons side by side read as one line).
 *
 * @module
 */
import type { Rect } from "../../ports/geometry.ts";
import type { PerceivedLine, PerceivedWord } from "../../ports/perception.ts";

/** One label: words close together on one line. */
export interface TextRegion {
  text: string;
  words: PerceivedWord[];
  bounds: Rect;
  /** Mean confidence of its words, 0..1. */
  confidence: number;
}

/** A gap wider than this many text heights starts a new region. */
const GAP_HEIGHTS = 1.2;
/** Gaps up to this many pixels never split (small text, wide word spacing). */
const MIN_SPLIT_GAP = 8;
/** A reading counts as text when it has a letter or a digit. */
const TEXTUAL = /[\p{L}\p{N}]/u;

/**
 * Builds text regions from lines, in reading order (top to bottom, then left to right).
 *
 * @param minConfidence Words below it (0..1) are dropped before grouping.
 */
export function textRegions(lines: readonly PerceivedLine[], minConfidence: number): TextRegion[] {
  const regions: TextRegion[] = [];
  for (const line of lines) {
    const words = line.words
      .filter((w) => w.confidence >= minConfidence && TEXTUAL.test(w.text) && w.bounds.width > 0)
      .sort((a, b) => a.bounds.x - b.bounds.x);
    if (!words.length) continue;
    const heights = words.map((w) => w.bounds.height).sort((a, b) => a - b);
    const splitGap = Math.max(MIN_SPLIT_GAP, GAP_HEIGHTS * heights[heights.length >> 1]);
    let group: PerceivedWord[] = [words[0]];
    for (const word of words.slice(1)) {
      const previous = group[group.length - 1];
      if (word.bounds.x - (previous.bounds.x + previous.bounds.width) > splitGap) {
        regions.push(region(group));
        group = [];
      }
      group.push(word);
    }
    regions.push(region(group));
  }
  return regions.sort((a, b) => a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
}

function region(words: PerceivedWord[]): TextRegion {
  return {
    text: words.map((w) => w.text).join(" "),
    words,
    bounds: union(words.map((w) => w.bounds)),
    confidence: words.reduce((sum, w) => sum + w.confidence, 0) / words.length,
  };
}

/** The smallest rectangle holding every rectangle. */
export function union(rects: readonly Rect[]): Rect {
  const left = Math.min(...rects.map((r) => r.x)), top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}
