/**
 * The XKB keymap a virtual keyboard uploads: one keycode per keysym the text or key needs
 * (wtype's approach), so any character types whatever the user's layout, with no modifier
 * level. Keysyms are written as numbers, which xkbcommon reads as they are. Modifiers are not
 * keys here: the virtual keyboard sets them with its `modifiers` request.
 *
 * @module
 */
import type { CanonicalKey, KeySpec, Modifier } from "../../lib/keys/key_names.ts";
import { keysymsForCodePoint, NAMED_KEYSYMS } from "../linux/x11/input/keysyms.ts";

/** The first XKB keycode used (evdev code = keycode - 8). */
const FIRST_KEYCODE = 9;
/** Most keysyms one keymap holds before it is rebuilt from what the next call needs. */
export const MAX_KEYMAP_KEYS = 200;

/** Modifier masks of the real modifiers with xkbcommon's "complete" compat: Shift, Control, Mod1, Mod4. */
export const MODIFIER_MASK: Readonly<Record<Modifier, number>> = { shift: 1, ctrl: 4, alt: 8, super: 64 };

/** Extra X keysyms of canonical keys not in {@linkcode NAMED_KEYSYMS} (arrows, function keys). */
const MORE_KEYSYMS: Partial<Record<CanonicalKey, bigint>> = {
  ArrowUp: 0xff52n,
  ArrowDown: 0xff54n,
  ArrowLeft: 0xff51n,
  ArrowRight: 0xff53n,
};

/** The keysym that types a key spec, or null when none does. */
export function keysymOf(spec: KeySpec): bigint | null {
  if (spec.kind === "named") {
    const named = NAMED_KEYSYMS[spec.name] ?? MORE_KEYSYMS[spec.name];
    if (named !== undefined) return named;
    const fn = /^F(\d+)$/.exec(spec.name);
    if (fn) return 0xffbdn + BigInt(Number(fn[1])); // F1 = 0xffbe
    return null;
  }
  const points = [...spec.char];
  if (points.length !== 1) return null;
  return keysymsForCodePoint(points[0].codePointAt(0)!)[0] ?? null;
}

/** A keymap: its keysyms in keycode order, and the text to upload. */
export class KeymapText {
  readonly keysyms: bigint[];

  constructor(keysyms: Iterable<bigint>) {
    this.keysyms = [...new Set(keysyms)];
  }

  /** True when every keysym has a key here. */
  covers(keysyms: Iterable<bigint>): boolean {
    for (const keysym of keysyms) if (!this.keysyms.includes(keysym)) return false;
    return true;
  }

  /** The evdev code of a keysym's key. @throws {RangeError} when the keymap lacks it. */
  evdevCode(keysym: bigint): number {
    const index = this.keysyms.indexOf(keysym);
    if (index < 0) throw new RangeError(`keysym 0x${keysym.toString(16)} is not in the keymap`);
    return FIRST_KEYCODE + index - 8;
  }

  /** The keymap in XKB's text format, NUL-terminated. */
  text(): string {
    const last = FIRST_KEYCODE + Math.max(this.keysyms.length, 1) - 1;
    const codes = this.keysyms.map((_, i) => `<K${i}> = ${FIRST_KEYCODE + i};`).join(" ");
    const symbols = this.keysyms.map((k, i) => `key <K${i}> {[ 0x${k.toString(16)} ]};`).join(" ");
    return `xkb_keymap {
xkb_keycodes "cua" { minimum = ${FIRST_KEYCODE - 1}; maximum = ${last + 1}; ${codes} };
xkb_types "cua" { include "complete" };
xkb_compatibility "cua" { include "complete" };
xkb_symbols "cua" { ${symbols} };
};
\0`;
  }
}
