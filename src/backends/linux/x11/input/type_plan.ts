/**
 * Plans how text is typed on a keymap: each grapheme becomes key presses at known
 * positions (with Shift/AltGr) or presses of a keysym the layout lacks, to be bound
 * on a spare keycode. Pure, so the keyboard's choices are unit-testable.
 *
 * Spare keysyms are grouped into chunks that fit the spare pool: every keysym of a
 * chunk is bound before any of its keys is pressed, so an app that re-reads the map
 * lazily (GTK) reads it once per chunk rather than once per character.
 *
 * @module
 */
import { graphemes } from "../../../../lib/keys/key_names.ts";
import type { Keymap, KeyPosition } from "./keymap.ts";
import { keysymsForCodePoint } from "./keysyms.ts";

/** One press while typing. */
export type TypeStep =
  | { readonly kind: "key"; readonly position: KeyPosition }
  | { readonly kind: "spare"; readonly keysym: bigint };

/** One grapheme and its presses; `steps` is null when something in it cannot be typed. */
export interface PlannedGrapheme {
  readonly text: string;
  readonly steps: readonly TypeStep[] | null;
}

/** Keyboard state the plan depends on. */
export interface PlanOptions {
  /** Effective XKB group. */
  group: number;
  /** Whether AltGr levels may be used. */
  level3: boolean;
  /** Caps Lock is locked: letters need the opposite Shift. */
  capsLock: boolean;
}

/**
 * Plans `text` (CR LF and CR count as a newline, typed as Return).
 */
export function planText(text: string, keymap: Keymap, options: PlanOptions): PlannedGrapheme[] {
  const lookup = { group: options.group, level3: options.level3 };
  return graphemes(text.replace(/\r\n?/g, "\n")).map((grapheme) => {
    const steps: TypeStep[] = [];
    for (const char of grapheme) {
      const keysyms = keysymsForCodePoint(char.codePointAt(0)!);
      if (keysyms.length === 0) return { text: grapheme, steps: null };
      const position = keymap.lookupAny(keysyms, lookup);
      if (!position) {
        steps.push({ kind: "spare", keysym: keysyms[0] });
        continue;
      }
      const invert = options.capsLock && options.group === 0 && keymap.isCaseKey(position.keycode);
      steps.push({ kind: "key", position: invert ? { ...position, shift: !position.shift } : position });
    }
    return { text: grapheme, steps };
  });
}

/**
 * Splits a plan into consecutive chunks, each needing at most `poolSize` distinct
 * spare keysyms (a grapheme is never split). With an empty pool, one chunk.
 */
export function chunkBySpares(plan: readonly PlannedGrapheme[], poolSize: number): PlannedGrapheme[][] {
  if (poolSize <= 0) return plan.length ? [[...plan]] : [];
  const chunks: PlannedGrapheme[][] = [];
  let chunk: PlannedGrapheme[] = [];
  let keysyms = new Set<bigint>();
  for (const grapheme of plan) {
    const mine = new Set(spareKeysyms([grapheme]));
    const merged = new Set([...keysyms, ...mine]);
    if (chunk.length > 0 && merged.size > poolSize) {
      chunks.push(chunk);
      chunk = [];
      keysyms = mine;
    } else {
      keysyms = merged;
    }
    chunk.push(grapheme);
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** The distinct spare keysyms of some graphemes, in order of first use. */
export function spareKeysyms(graphemes: readonly PlannedGrapheme[]): bigint[] {
  const out = new Set<bigint>();
  for (const grapheme of graphemes) {
    for (const step of grapheme.steps ?? []) if (step.kind === "spare") out.add(step.keysym);
  }
  return [...out];
}
