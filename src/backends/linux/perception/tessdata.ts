/**
 * Where Tesseract's language data lives: `TESSDATA_PREFIX` first (as Tesseract reads
 * it: the tessdata folder itself, or its parent), then the folders Debian, Ubuntu and
 * source builds use.
 *
 * @module
 */
import { join } from "node:path";

/** Folders searched after `TESSDATA_PREFIX`, newest layout first. */
export const TESSDATA_DIRS = [
  "/usr/share/tesseract-ocr/5/tessdata",
  "/usr/share/tesseract-ocr/4.00/tessdata",
  "/usr/share/tessdata",
  "/usr/local/share/tessdata",
] as const;

/** The folder holding `<language>.traineddata`, or null with the folders tried. */
export function findTessdata(
  language: string,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): { dir: string | null; tried: string[] } {
  const prefix = env("TESSDATA_PREFIX");
  const candidates = prefix ? [prefix, join(prefix, "tessdata"), ...TESSDATA_DIRS] : [...TESSDATA_DIRS];
  for (const dir of candidates) {
    try {
      if (Deno.statSync(join(dir, `${language}.traineddata`)).isFile) return { dir, tried: candidates };
    } catch {
      // Not here.
    }
  }
  return { dir: null, tried: candidates };
}
