/**
 * Small text helpers for control labels.
 *
 * @module
 */

/** "&Match case" → "Match case" ("&&" stays one ampersand). */
export function stripMnemonic(text: string): string {
  return text.replace(/&(&?)/g, "$1");
}

/** Converts a code-point offset into a UTF-16 index of `text`. */
export function utf16Index(text: string, codePoints: number): number {
  let index = 0;
  let seen = 0;
  for (const character of text) {
    if (seen >= codePoints) break;
    index += character.length;
    seen++;
  }
  return index;
}

/** Converts a UTF-16 index of `text` into a code-point offset. */
export function codePointOffset(text: string, utf16: number): number {
  return [...text.slice(0, utf16)].length;
}
