/**
 * The X keyboard mapping seen from the keyboard layer: where each keysym sits
 * (keycode, Shift, AltGr), which keycodes are the modifiers, and a pool of spare
 * keycodes for keysyms the layout does not have.
 *
 * The core mapping (`XGetKeyboardMapping`) lists, per keycode, group 1 levels 1-2 in
 * columns 0-1, group 2 levels 1-2 in columns 2-3 and group 1 levels 3-4 (AltGr,
 * AltGr+Shift) in columns 4-5; that is how the X server flattens its XKB map, and
 * what this module searches.
 *
 * Characters the layout lacks go through spare keycodes ({@linkcode Keymap.emptyKeycodes},
 * bound with {@linkcode KeymapBackend.bind}; see `spare_pool.ts`).
 *
 * @module
 */
import { X, x11, XKB, XkbMapChangesLayout, XModifierKeymapLayout } from "../../../../../ffi/linux/x11.ts";
import type { KeySpec, Modifier } from "../../../../lib/keys/key_names.ts";
import type { XConnection } from "../connection.ts";
import { keysymsForCodePoint, NAMED_EVDEV_KEYCODES, NAMED_KEYSYMS, XK } from "./keysyms.ts";

/** A snapshot of the core keyboard mapping and modifier map. */
export interface KeyboardMapping {
  minKeycode: number;
  maxKeycode: number;
  keysymsPerKeycode: number;
  /** `keysyms[(keycode - minKeycode) * keysymsPerKeycode + column]`. */
  keysyms: BigUint64Array;
  /** Keycodes of the 8 modifiers, in X order: Shift, Lock, Control, Mod1 ... Mod5. */
  modifiers: number[][];
}

/** Reads and changes the mapping: the X server, or a fake in unit tests. */
export interface KeymapBackend {
  /** Reads the whole mapping (one or two round trips). */
  read(): KeyboardMapping;
  /**
   * Gives each keycode one symbol on every level (`NoSymbol`, 0n, clears it), in as few
   * requests as possible: every request makes every client re-read the map (openbox
   * spends 130-230 ms on each), so a batch is one request. Queued, not waited for.
   */
  bind(bindings: readonly (readonly [keycode: number, keysym: bigint])[]): void;
}

/** Where a keysym sits: its keycode and the modifiers that select its level. */
export interface KeyPosition {
  keycode: number;
  shift: boolean;
  /** AltGr (ISO_Level3_Shift) is needed. */
  level3: boolean;
}

/** Options of {@linkcode Keymap.lookup}. */
export interface LookupOptions {
  /** The effective XKB group (0 = first layout); default 0. */
  group?: number;
  /** Whether AltGr levels may be used; default true. */
  level3?: boolean;
}

/** Modifier row indexes in the modifier map. */
const MOD_ROW = { shift: 0, lock: 1, ctrl: 2, mod1: 3, mod2: 4, mod3: 5, mod4: 6, mod5: 7 } as const;

/** Keysyms that stand for each modifier, preferred first, and the row they usually sit in. */
const MODIFIER_KEYSYMS: Record<Modifier | "level3", { keysyms: bigint[]; row: number }> = {
  shift: { keysyms: [XK.Shift_L, XK.Shift_R], row: MOD_ROW.shift },
  ctrl: { keysyms: [XK.Control_L, XK.Control_R], row: MOD_ROW.ctrl },
  alt: { keysyms: [XK.Alt_L, XK.Alt_R, XK.Meta_L], row: MOD_ROW.mod1 },
  super: { keysyms: [XK.Super_L, XK.Super_R], row: MOD_ROW.mod4 },
  level3: { keysyms: [XK.ISO_Level3_Shift, XK.Mode_switch], row: MOD_ROW.mod5 },
};

/** Columns of one group: [column, shift, level3]. */
function columnsOf(group: number, level3: boolean): [number, boolean, boolean][] {
  if (group === 0) {
    const base: [number, boolean, boolean][] = [[0, false, false], [1, true, false]];
    return level3 ? [...base, [4, false, true], [5, true, true]] : base;
  }
  // Group 2 levels 1-2; further groups and levels are left to spare keycodes.
  return group === 1 ? [[2, false, false], [3, true, false]] : [];
}

/**
 * The keyboard mapping, read once and again on {@linkcode refresh}.
 */
export class Keymap {
  readonly #backend: KeymapBackend;
  #mapping: KeyboardMapping;
  #readAt = 0;

  constructor(backend: KeymapBackend) {
    this.#backend = backend;
    this.#mapping = backend.read();
    this.#readAt = performance.now();
  }

  /** A keymap of the X server behind `conn`. */
  static forConnection(conn: XConnection): Keymap {
    return new Keymap(new X11KeymapBackend(conn));
  }

  /** The backend, for binding spare keycodes. */
  get backend(): KeymapBackend {
    return this.#backend;
  }

  /** The current snapshot. */
  get mapping(): KeyboardMapping {
    return this.#mapping;
  }

  /** Re-reads the mapping (after a layout change, or before an action). */
  refresh(): void {
    this.#mapping = this.#backend.read();
    this.#readAt = performance.now();
  }

  /** Re-reads the mapping when the snapshot is older than `maxAgeMs`. */
  refreshIfOlder(maxAgeMs: number): void {
    if (performance.now() - this.#readAt > maxAgeMs) this.refresh();
  }

  /** The keysyms of one keycode, every column (empty outside the keycode range). */
  keysymsOf(keycode: number): bigint[] {
    const m = this.#mapping;
    if (keycode < m.minKeycode || keycode > m.maxKeycode) return [];
    const start = (keycode - m.minKeycode) * m.keysymsPerKeycode;
    return [...m.keysyms.subarray(start, start + m.keysymsPerKeycode)];
  }

  /**
   * The keysym a spare keycode is bound to for a key: named keys their X keysym
   * (Return 0xff0d, Tab 0xff09, ...), a character of one code point its Unicode
   * keysym (Latin-1 as is, else `0x01000000 | U`; newline is Return, tab is Tab).
   * Null for a character of several code points and for keys X has no keysym for.
   */
  keysymFor(spec: KeySpec): bigint | null {
    if (spec.kind === "named") return NAMED_KEYSYMS[spec.name] ?? null;
    const codePoints = [...spec.char];
    if (codePoints.length !== 1) return null;
    return keysymsForCodePoint(codePoints[0].codePointAt(0)!)[0] ?? null;
  }

  /**
   * Finds a keysym: plain level first, then Shift, then AltGr and AltGr+Shift; the
   * lowest keycode wins among equals. Null when the layout does not have it.
   */
  lookup(keysym: bigint, options: LookupOptions = {}): KeyPosition | null {
    if (keysym === XK.NoSymbol) return null;
    const m = this.#mapping;
    const canLevel3 = (options.level3 ?? true) && this.modifierKeycode("level3") !== null;
    for (const [column, shift, level3] of columnsOf(options.group ?? 0, canLevel3)) {
      if (column >= m.keysymsPerKeycode) continue;
      for (let keycode = m.minKeycode; keycode <= m.maxKeycode; keycode++) {
        if (m.keysyms[(keycode - m.minKeycode) * m.keysymsPerKeycode + column] === keysym) {
          return { keycode, shift, level3 };
        }
      }
    }
    return null;
  }

  /** The first of several keysyms that {@linkcode lookup} finds. */
  lookupAny(keysyms: readonly bigint[], options: LookupOptions = {}): KeyPosition | null {
    for (const keysym of keysyms) {
      const position = this.lookup(keysym, options);
      if (position) return position;
    }
    return null;
  }

  /**
   * Where a key spec sits on the current layout; null when it is not there (a
   * character may then go through a spare keycode).
   */
  resolve(spec: KeySpec, options: LookupOptions = {}): KeyPosition | null {
    if (spec.kind === "named") {
      const keysym = NAMED_KEYSYMS[spec.name];
      const position = keysym === undefined ? null : this.lookup(keysym, options);
      if (position) return position;
      const evdev = NAMED_EVDEV_KEYCODES[spec.name];
      if (evdev !== undefined && this.keysymsOf(evdev).some((s) => s !== XK.NoSymbol)) {
        return { keycode: evdev, shift: false, level3: false };
      }
      return null;
    }
    const codePoints = [...spec.char];
    if (codePoints.length !== 1) return null;
    return this.lookupAny(keysymsForCodePoint(codePoints[0].codePointAt(0)!), options);
  }

  /**
   * The keycode that sets a modifier: a key with the modifier's usual keysym that the
   * modifier map lists (Shift_L for shift, Alt_L for alt, Super_L for super,
   * ISO_Level3_Shift for level3), else the first keycode of the usual row.
   */
  modifierKeycode(modifier: Modifier | "level3"): number | null {
    const { keysyms, row } = MODIFIER_KEYSYMS[modifier];
    const modifierKeycodes = new Set(this.#mapping.modifiers.flat());
    for (const keysym of keysyms) {
      const position = this.#lookupColumn0(keysym, modifierKeycodes);
      if (position !== null) return position;
    }
    return this.#mapping.modifiers[row]?.find((keycode) => keycode !== 0) ?? null;
  }

  #lookupColumn0(keysym: bigint, within: ReadonlySet<number>): number | null {
    const m = this.#mapping;
    for (let keycode = m.minKeycode; keycode <= m.maxKeycode; keycode++) {
      const index = (keycode - m.minKeycode) * m.keysymsPerKeycode;
      if (m.keysyms[index] === keysym && within.has(keycode)) return keycode;
    }
    return null;
  }

  /**
   * True when Caps Lock turns the key's first level into its second: its two first
   * columns are the lower- and upper-case forms of one letter.
   */
  isCaseKey(keycode: number): boolean {
    const [lower, upper] = this.keysymsOf(keycode);
    const lowerChar = charOfKeysym(lower ?? 0n), upperChar = charOfKeysym(upper ?? 0n);
    return lowerChar !== null && upperChar !== null && lowerChar !== upperChar &&
      lowerChar.toUpperCase() === upperChar;
  }

  /**
   * Keycodes with no symbol in any column, highest first (as xdotool picks them),
   * at most `limit`. Keycode 8, which some toolkits ignore, is never used.
   */
  emptyKeycodes(limit = Infinity): number[] {
    const m = this.#mapping;
    const reserved = new Set(m.modifiers.flat());
    const out: number[] = [];
    for (let keycode = m.maxKeycode; keycode >= Math.max(m.minKeycode, 9) && out.length < limit; keycode--) {
      if (reserved.has(keycode)) continue;
      const start = (keycode - m.minKeycode) * m.keysymsPerKeycode;
      if (m.keysyms.subarray(start, start + m.keysymsPerKeycode).every((s) => s === XK.NoSymbol)) {
        out.push(keycode);
      }
    }
    return out;
  }
}

/** The character a Latin-1 or Unicode keysym types, or null. */
function charOfKeysym(keysym: bigint): string | null {
  if ((keysym >= 0x20n && keysym <= 0x7en) || (keysym >= 0xa0n && keysym <= 0xffn)) {
    return String.fromCodePoint(Number(keysym));
  }
  if (keysym >= 0x01000100n && keysym <= 0x0110ffffn) return String.fromCodePoint(Number(keysym & 0xffffffn));
  return null;
}

/** {@linkcode KeymapBackend} over an X connection. */
export class X11KeymapBackend implements KeymapBackend {
  readonly #conn: XConnection;
  #perKeycode = 0;

  constructor(conn: XConnection) {
    this.#conn = conn;
  }

  read(): KeyboardMapping {
    const display = this.#conn.unsafeDisplay();
    const min = new Int32Array(1), max = new Int32Array(1), per = new Int32Array(1);
    x11.symbols.XDisplayKeycodes(display, min, max);
    const count = max[0] - min[0] + 1;
    const pointer = x11.symbols.XGetKeyboardMapping(display, min[0], count, per);
    if (!pointer) this.#conn.unsafeDisplay(); // a lost server reports display_unavailable
    let keysyms = new BigUint64Array(0);
    if (pointer) {
      // UNSAFE: Xlib returned count * per KeySyms (unsigned long, 8 bytes on LP64).
      keysyms = new BigUint64Array(
        Deno.UnsafePointerView.getArrayBuffer(pointer, count * per[0] * 8).slice(0),
      );
      x11.symbols.XFree(pointer);
    }
    this.#perKeycode = per[0];
    return {
      minKeycode: min[0],
      maxKeycode: max[0],
      keysymsPerKeycode: per[0],
      keysyms,
      modifiers: this.#modifiers(display),
    };
  }

  #modifiers(display: Deno.PointerObject): number[][] {
    const modmap = x11.symbols.XGetModifierMapping(display);
    if (!modmap) return Array.from({ length: 8 }, () => []);
    try {
      const view = new Deno.UnsafePointerView(modmap);
      const perModifier = view.getInt32(XModifierKeymapLayout.max_keypermod);
      const keycodes = view.getPointer(XModifierKeymapLayout.modifiermap);
      if (!keycodes || perModifier <= 0) return Array.from({ length: 8 }, () => []);
      // UNSAFE: modifiermap holds 8 * max_keypermod KeyCodes (bytes).
      const bytes = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(keycodes, 8 * perModifier).slice(0));
      return Array.from(
        { length: 8 },
        (_, row) => [...bytes.subarray(row * perModifier, (row + 1) * perModifier)].filter((k) => k !== 0),
      );
    } finally {
      x11.symbols.XFreeModifiermap(modmap);
    }
  }

  bind(bindings: readonly (readonly [keycode: number, keysym: bigint])[]): void {
    if (bindings.length === 0) return;
    if (bindings.length > 1 && this.#bindXkb(bindings)) return;
    const display = this.#conn.unsafeDisplay();
    const per = this.#perKeycode || 1;
    for (const [keycode, keysym] of bindings) {
      x11.symbols.XChangeKeyboardMapping(display, keycode, per, new BigUint64Array(per).fill(keysym), 1);
    }
  }

  /**
   * Binds a batch in one XKB SetMap request over the keycode range (keys in between
   * are sent back as they are, types included, so nothing else changes). The server
   * applies it to the core keyboard and its slaves, as XChangeKeyboardMapping does.
   * False (nothing sent) when XKB is unavailable or the server refuses.
   */
  #bindXkb(bindings: readonly (readonly [number, bigint])[]): boolean {
    const display = this.#conn.unsafeDisplay();
    const xkb = x11.symbols.XkbGetMap(display, XKB.KeyTypesMask | XKB.KeySymsMask, XKB.UseCoreKbd);
    if (!xkb) return false;
    try {
      const changes = new Uint8Array(XkbMapChangesLayout.size + 2);
      const oneLevel = new Int32Array(XKB.NumKbdGroups).fill(XKB.OneLevelIndex);
      for (const [keycode, keysym] of bindings) {
        const groups = keysym === 0n ? 0 : 1;
        if (
          x11.symbols.XkbChangeTypesOfKey(xkb, keycode, groups, XKB.Group1Mask, oneLevel, changes) !==
            X.Success
        ) {
          return false;
        }
        if (groups === 0) continue;
        const syms = x11.symbols.XkbResizeKeySyms(xkb, keycode, 1);
        if (!syms) return false;
        // UNSAFE: XkbResizeKeySyms returned room for one KeySym of this key, inside xkb (freed below).
        new BigUint64Array(Deno.UnsafePointerView.getArrayBuffer(syms, 8))[0] = keysym;
      }
      // XkbChangeTypesOfKey leaves `changes` alone for keys without groups before or after:
      // name the range here.
      const keycodes = bindings.map(([keycode]) => keycode);
      const first = Math.min(...keycodes), last = Math.max(...keycodes);
      const view = new DataView(changes.buffer);
      view.setUint16(XkbMapChangesLayout.changed, XKB.KeySymsMask, true);
      view.setUint8(XkbMapChangesLayout.first_key_sym, first);
      view.setUint8(XkbMapChangesLayout.num_key_syms, last - first + 1);
      const { value, errors } = this.#conn.trap(() => x11.symbols.XkbChangeMap(display, xkb, changes));
      return value !== 0 && errors.length === 0;
    } finally {
      x11.symbols.XkbFreeKeyboard(xkb, 0, X.True);
    }
  }

  /** Waits for the server (a round trip). */
  sync(): void {
    x11.symbols.XSync(this.#conn.unsafeDisplay(), X.False);
  }
}
