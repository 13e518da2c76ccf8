/**
 * Typed text read back from the window's pixels, for apps that expose no accessibility
 * (terminals such as xterm): the window is recognized before and after typing with the
 * local perception engine, and the typing is confirmed when the typed text's letters and
 * digits appear once more than before. Scripts the engine does not read (Greek, CJK) and
 * texts too short to tell apart prove nothing either way.
 *
 * @module
 */
import type { ToolContext } from "../kernel/tool.ts";

/** Fewest letters and digits a text needs for its appearance on screen to mean anything. */
const MIN_KEY_LENGTH = 4;
/** How long to wait for the text to show (the app draws what it received). */
const OCR_WAIT_MS = 2_000;

/** The letters and digits of a text, lowercased: what recognition can be held to. */
export function ocrKey(text: string): string {
  return text.normalize("NFKD").replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

/** How many times `key` occurs in `haystack`. */
export function occurrences(haystack: string, key: string): number {
  if (key === "") return 0;
  let count = 0;
  for (let at = haystack.indexOf(key); at >= 0; at = haystack.indexOf(key, at + key.length)) count++;
  return count;
}

/** A window's text as the perception engine reads it, compacted like {@linkcode ocrKey}; null without an engine. */
export async function screenText(ctx: ToolContext, windowId: number): Promise<string | null> {
  const perception = ctx.backend.perception;
  if (!perception || !(await perception.status()).installed) return null;
  try {
    const { image } = await ctx.backend.screen.captureWindow(windowId);
    const lines = await perception.recognizeText(image, ctx.signal);
    return ocrKey(lines.map((line) => line.words.map((word) => word.text).join("")).join(""));
  } catch {
    return null;
  }
}

/** A before-reading for {@linkcode textAppeared}; null when it cannot prove anything. */
export interface OcrBaseline {
  key: string;
  before: number;
}

/** Reads the window before typing `text`; null when the text or the engine cannot prove it. */
export async function ocrBaseline(
  ctx: ToolContext,
  windowId: number,
  text: string,
): Promise<OcrBaseline | null> {
  const key = ocrKey(text);
  if (key.length < MIN_KEY_LENGTH) return null;
  const screen = await screenText(ctx, windowId);
  return screen === null ? null : { key, before: occurrences(screen, key) };
}

/** True once the typed text shows one more time than before (waits a little for the app to draw). */
export async function textAppeared(
  ctx: ToolContext,
  windowId: number,
  baseline: OcrBaseline,
): Promise<boolean> {
  const deadline = performance.now() + OCR_WAIT_MS;
  while (true) {
    const screen = await screenText(ctx, windowId);
    if (screen !== null && occurrences(screen, baseline.key) > baseline.before) return true;
    if (performance.now() >= deadline || screen === null) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
