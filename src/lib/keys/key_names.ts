/**
 * Key names as agents write them, parsed into platform-neutral key specs.
 *
 * A key is either a **named** key (`Enter`, `ArrowUp`, `F5`, `ControlLeft`, ...; the
 * canonical names follow the W3C `KeyboardEvent.key` spelling where one exists) or a
 * **character** (`a`, `A`, `é`, `+`, `日`). Names are matched without regard to case,
 * spaces, `_` or `-`, so `Return`, `enter`, `page_up`, `Page Up` and X keysym names
 * (`BackSpace`, `Prior`, `Super_L`) all work. Punctuation has names too (`plus`,
 * `minus`, `comma`, `slash`, `bracketleft`, ...), so a combo can say `ctrl+plus`.
 *
 * Modifiers are `ctrl`, `shift`, `alt` and `super`. `cmd`, `command`, `meta`, `win`,
 * `windows` and `os` mean **super** (the Windows/Command key), never ctrl: an agent
 * that says "cmd+c" on Linux gets Super+C, and should say "ctrl+c" for copy. `option`
 * means alt.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { CHAR_ALIASES, NAMED_ALIASES, PROTO_CHARS, PROTO_NAMED, XF86_ALIASES } from "./_key_aliases.ts";

/** A modifier held around a key. */
export type Modifier = "ctrl" | "shift" | "alt" | "super";

/** The modifiers, in the order combos are written and pressed. */
export const MODIFIERS: readonly Modifier[] = ["ctrl", "alt", "shift", "super"];

/** Every canonical named key. */
export const CANONICAL_KEYS = [
  // Modifiers (generic, then sided) and AltGr
  "Shift",
  "ShiftLeft",
  "ShiftRight",
  "Control",
  "ControlLeft",
  "ControlRight",
  "Alt",
  "AltLeft",
  "AltRight",
  "AltGraph",
  "Super",
  "SuperLeft",
  "SuperRight",
  "Fn",
  // Editing and navigation
  "Enter",
  "Tab",
  "Space",
  "Backspace",
  "Delete",
  "Escape",
  "Insert",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "ContextMenu",
  "Help",
  // Function keys
  "F1",
  "F2",
  "F3",
  "F4",
  "F5",
  "F6",
  "F7",
  "F8",
  "F9",
  "F10",
  "F11",
  "F12",
  "F13",
  "F14",
  "F15",
  "F16",
  "F17",
  "F18",
  "F19",
  "F20",
  "F21",
  "F22",
  "F23",
  "F24",
  // Locks and system
  "CapsLock",
  "NumLock",
  "ScrollLock",
  "PrintScreen",
  "Pause",
  "IntlBackslash",
  // Numeric keypad
  "Numpad0",
  "Numpad1",
  "Numpad2",
  "Numpad3",
  "Numpad4",
  "Numpad5",
  "Numpad6",
  "Numpad7",
  "Numpad8",
  "Numpad9",
  "NumpadAdd",
  "NumpadSubtract",
  "NumpadMultiply",
  "NumpadDivide",
  "NumpadDecimal",
  "NumpadEnter",
  "NumpadEqual",
  // Media, hardware, browser and launcher keys
  "MediaPlayPause",
  "MediaStop",
  "MediaTrackNext",
  "MediaTrackPrevious",
  "AudioVolumeUp",
  "AudioVolumeDown",
  "AudioVolumeMute",
  "BrightnessUp",
  "BrightnessDown",
  "Eject",
  "Power",
  "Sleep",
  "BrowserBack",
  "BrowserForward",
  "BrowserRefresh",
  "BrowserHome",
  "BrowserSearch",
  "LaunchMail",
  "LaunchApp1",
  "LaunchApp2",
] as const;

/** A canonical named key. */
export type CanonicalKey = typeof CANONICAL_KEYS[number];

/** One key: a named key, or a single character (one grapheme, case kept). */
export type KeySpec =
  | { readonly kind: "named"; readonly name: CanonicalKey }
  | { readonly kind: "char"; readonly char: string };

/** Modifiers to hold, then one key. */
export interface KeyCombo {
  readonly modifiers: readonly Modifier[];
  readonly key: KeySpec;
}

const UNKNOWN_KEY_HINT = "use a key name such as Return, Tab, a, F5, or a single character";

/** The modifier each modifier key stands for. */
const MODIFIER_OF_KEY: Partial<Record<CanonicalKey, Modifier>> = {
  Shift: "shift",
  ShiftLeft: "shift",
  ShiftRight: "shift",
  Control: "ctrl",
  ControlLeft: "ctrl",
  ControlRight: "ctrl",
  Alt: "alt",
  AltLeft: "alt",
  AltRight: "alt",
  Super: "super",
  SuperLeft: "super",
  SuperRight: "super",
};

/** The generic key of each modifier, pressed when a combo holds it. */
export const MODIFIER_KEYS: Readonly<Record<Modifier, CanonicalKey>> = {
  ctrl: "Control",
  shift: "Shift",
  alt: "Alt",
  super: "Super",
};

const CANONICAL_SET: ReadonlySet<string> = new Set(CANONICAL_KEYS);

// Function and keypad keys by pattern: f1..f24, numpad0..9 / kp0..9.
const FUNCTION_KEY = /^f([1-9]|1[0-9]|2[0-4])$/;
const KEYPAD_DIGIT = /^(?:numpad|kp)([0-9])$/;

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Splits text into grapheme clusters (what a person counts as characters). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (segment) => segment.segment);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, "");
}

function unknownKey(name: string, field: string): DriverError {
  return new DriverError("invalid_arguments", `Unknown key "${name}"`, { field, hint: UNKNOWN_KEY_HINT });
}

/** Looks a name up without throwing; null when it is neither a name nor one character. */
function lookupKey(raw: string): KeySpec | null {
  if (raw.length === 0) return null;
  if (raw === "\n" || raw === "\r" || raw === "\r\n") return { kind: "named", name: "Enter" };
  if (raw === "\t") return { kind: "named", name: "Tab" };
  if (raw === " ") return { kind: "char", char: " " };
  // A single grapheme (after trimming the spaces around a name) is a character, case kept.
  const text = raw.trim();
  if (text === "") return null;
  if (graphemes(text).length === 1) {
    return /^\p{Cc}$/u.test(text) ? null : { kind: "char", char: text };
  }
  let key = normalize(text);
  if (key.startsWith("xf86")) {
    key = key.slice(4);
    if (XF86_ALIASES[key]) return { kind: "named", name: XF86_ALIASES[key] };
  }
  const named = NAMED_ALIASES[key];
  if (named) return { kind: "named", name: named };
  const fn = FUNCTION_KEY.exec(key);
  if (fn) return { kind: "named", name: `F${fn[1]}` as CanonicalKey };
  const digit = KEYPAD_DIGIT.exec(key);
  if (digit) return { kind: "named", name: `Numpad${digit[1]}` as CanonicalKey };
  const char = CHAR_ALIASES[key];
  if (char !== undefined) return { kind: "char", char };
  // Canonical names themselves are always accepted (NumpadAdd, AudioVolumeUp, ...).
  for (const name of CANONICAL_KEYS) if (normalize(name) === key) return { kind: "named", name };
  return null;
}

/**
 * Parses one key: a name (any case) or a single character (case kept).
 *
 * @param name What the agent wrote: `"Return"`, `"esc"`, `"F5"`, `"a"`, `"A"`, `"plus"`, `"é"`.
 * @param field The argument named in the error.
 * @returns The key spec.
 * @throws {DriverError} `invalid_arguments` (with `field`) for an unknown name.
 *
 * @example
 * ```ts
 * import { parseKey } from "./key_names.ts";
 * parseKey("enter"); // { kind: "named", name: "Enter" }
 * parseKey("A"); // { kind: "char", char: "A" }
 * ```
 */
export function parseKey(name: string, field = "key"): KeySpec {
  const spec = lookupKey(name);
  if (!spec) throw unknownKey(name, field);
  return spec;
}

/** True for a canonical named key. */
export function isCanonicalKey(name: string): name is CanonicalKey {
  return CANONICAL_SET.has(name);
}

/**
 * The modifier a name or spec stands for (`"cmd"` → `"super"`, `ControlLeft` → `"ctrl"`),
 * or null when it is not a modifier.
 */
export function modifierOf(key: string | KeySpec): Modifier | null {
  const spec = typeof key === "string" ? lookupKey(key) : key;
  if (!spec || spec.kind !== "named") return null;
  return MODIFIER_OF_KEY[spec.name] ?? null;
}

/** True when a name or spec is a modifier key (ctrl, shift, alt, super and their aliases or sides). */
export function isModifier(key: string | KeySpec): boolean {
  return modifierOf(key) !== null;
}

/** Splits `"ctrl+shift+t"` into its parts; `"ctrl++"` ends in the `+` key. */
function splitCombo(text: string): string[] | null {
  const trimmed = text.trim();
  if (!text.includes("+") || trimmed === "+") return [trimmed === "+" ? "+" : text];
  let tail: string[] = [];
  let head = trimmed;
  if (head.endsWith("++")) {
    tail = ["+"];
    head = head.slice(0, -2);
    if (head === "") return tail;
  }
  const parts = head.split("+");
  if (parts.some((part) => part.trim() === "" && part !== " ")) return null;
  return [...parts, ...tail];
}

/** Builds a combo from parts whose last one is the key and the rest modifiers. */
function comboOf(parts: readonly string[], field: string, text: string): KeyCombo {
  const modifiers: Modifier[] = [];
  for (const part of parts.slice(0, -1)) {
    const modifier = modifierOf(part);
    if (!modifier) {
      const known = lookupKey(part) !== null;
      throw new DriverError(
        "invalid_arguments",
        known
          ? `"${part.trim()}" in "${text}" is not a modifier`
          : `Unknown key "${part.trim()}" in "${text}"`,
        { field, hint: "write modifiers first and one key last, as in ctrl+shift+t" },
      );
    }
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  const last = parts[parts.length - 1];
  let key = lookupKey(last);
  if (!key) throw unknownKey(last.trim(), field);
  // "Ctrl+T" means ctrl+t: a letter's case only matters through an explicit shift.
  if (key.kind === "char" && modifiers.length > 0 && key.char.toLowerCase() !== key.char) {
    const lower = key.char.toLowerCase();
    if (graphemes(lower).length === 1) key = { kind: "char", char: lower };
  }
  return { modifiers: MODIFIERS.filter((m) => modifiers.includes(m)), key };
}

/**
 * Parses a combo such as `"ctrl+shift+t"`, `"Ctrl+Alt+Delete"`, `"super+l"` or a
 * single key (`"Return"`, `"shift"`). Modifiers come first, one key last; `+` is the
 * separator, and `"ctrl++"` or `"ctrl+plus"` presses the plus key. With a modifier
 * held, an upper-case letter counts as its lower-case key (`"Ctrl+T"` is ctrl+t; write
 * `"ctrl+shift+t"` for the capital). A lone modifier is a key of its own.
 *
 * @param text The combo.
 * @param field The argument named in errors.
 * @returns Modifiers in press order (ctrl, alt, shift, super) and the key.
 * @throws {DriverError} `invalid_arguments` (with `field`) for an unknown name, an empty
 *   part, or a non-modifier before the last part.
 */
export function parseCombo(text: string, field = "key"): KeyCombo {
  const parts = splitCombo(text);
  if (!parts || parts.length === 0) {
    throw new DriverError("invalid_arguments", `Invalid key combination "${text}"`, {
      field,
      hint: "write modifiers and one key joined by +, as in ctrl+shift+t",
    });
  }
  return comboOf(parts, field, text);
}

/**
 * Parses the `keys` array of `hotkey`: modifiers, then exactly one non-modifier key
 * (`["ctrl", "shift", "t"]`). An element may itself be a combo (`["ctrl+shift", "t"]`
 * or `["ctrl+c"]`).
 *
 * @param keys The keys in press order.
 * @param field The argument named in errors.
 * @returns The modifiers (deduplicated, in press order) and the key.
 * @throws {DriverError} `invalid_arguments` for an empty list, an unknown name, a
 *   non-modifier before the last key, or a last key that is itself a modifier.
 */
export function parseHotkeyList(keys: readonly string[], field = "keys"): KeyCombo {
  if (keys.length === 0) {
    throw new DriverError("invalid_arguments", "hotkey needs at least one key", {
      field,
      hint: 'list modifiers then one key, as in ["ctrl", "c"]',
    });
  }
  const parts: string[] = [];
  for (const [index, element] of keys.entries()) {
    const split = lookupKey(element) ? [element] : splitCombo(element);
    if (!split) throw unknownKey(element, `${field}[${index}]`);
    parts.push(...split);
  }
  const combo = comboOf(parts, field, keys.join("+"));
  if (isModifier(combo.key)) {
    throw new DriverError(
      "invalid_arguments",
      `hotkey needs a non-modifier key last; got only modifiers (${keys.join(", ")})`,
      {
        field,
        hint:
          'end the list with the key to press, as in ["ctrl", "shift", "t"]; use press_key for a lone modifier',
      },
    );
  }
  return combo;
}

/** Writes a key the way {@linkcode parseKey} reads it back (`Enter`, `a`, `plus`). */
export function formatKey(key: KeySpec): string {
  if (key.kind === "named") return key.name;
  if (key.char === "+") return "plus";
  if (key.char === " ") return "Space";
  return key.char;
}

/** Writes a combo as `ctrl+shift+t`. */
export function formatCombo(combo: KeyCombo): string {
  return [...combo.modifiers, formatKey(combo.key)].join("+");
}

/**
 * Maps a `cua.env.v1.Key` enum name (`KEY_ENTER`, `KEY_A`, `KEY_DIGIT_1`, `KEY_F5`,
 * `KEY_ARROW_UP`, `KEY_CONTROL_LEFT`, `KEY_META` ...) to a key spec. Letters map to
 * lower-case characters, digits and punctuation to their unshifted characters (the
 * physical key on a US layout); `KEY_META*` is Super.
 *
 * @throws {DriverError} `invalid_arguments` for `KEY_UNSPECIFIED` or an unknown name.
 */
export function keyFromProtoName(name: string, field = "key"): KeySpec {
  const match = /^KEY_([A-Z0-9_]+)$/.exec(name);
  const body = match?.[1];
  if (body && body !== "UNSPECIFIED") {
    if (/^[A-Z]$/.test(body)) return { kind: "char", char: body.toLowerCase() };
    const digit = /^DIGIT_([0-9])$/.exec(body);
    if (digit) return { kind: "char", char: digit[1] };
    if (PROTO_CHARS[body]) return { kind: "char", char: PROTO_CHARS[body] };
    if (PROTO_NAMED[body]) return { kind: "named", name: PROTO_NAMED[body] };
    // KEY_PAGE_UP -> PageUp, KEY_NUMPAD_ADD -> NumpadAdd, KEY_F5 -> F5, ...
    const pascal = body.toLowerCase().split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join("");
    if (isCanonicalKey(pascal)) return { kind: "named", name: pascal };
  }
  throw new DriverError("invalid_arguments", `Unknown key "${name}"`, {
    field,
    hint: "use a cua.env.v1.Key name such as KEY_ENTER, KEY_A, KEY_DIGIT_1 or KEY_F5",
  });
}
