/**
 * macOS virtual key codes (kVK_* of Carbon's Events.h, HIToolbox) for the canonical
 * key names, and the US ANSI positions of printable characters.
 *
 * Virtual key codes name physical positions. Shortcuts ("cmd+c") use the US ANSI
 * position of the character, as every macOS automation library does; typed text never
 * depends on a layout because it travels as Unicode strings on the events
 * (CGEventKeyboardSetUnicodeString).
 *
 * @module
 */
import type { CanonicalKey, Modifier } from "../../lib/keys/key_names.ts";
import { CGEventFlags } from "../../../ffi/darwin/core_graphics.ts";

/** kVK codes of named keys (absent: no such key on a Mac keyboard). */
export const NAMED_KEY_CODES: Readonly<Partial<Record<CanonicalKey, number>>> = {
  Shift: 0x38,
  ShiftLeft: 0x38,
  ShiftRight: 0x3c,
  Control: 0x3b,
  ControlLeft: 0x3b,
  ControlRight: 0x3e,
  Alt: 0x3a, // Option
  AltLeft: 0x3a,
  AltRight: 0x3d,
  Super: 0x37, // Command
  SuperLeft: 0x37,
  SuperRight: 0x36,
  Fn: 0x3f,
  Enter: 0x24, // Return
  Tab: 0x30,
  Space: 0x31,
  Backspace: 0x33, // "Delete" on a Mac keyboard
  Delete: 0x75, // Forward delete
  Escape: 0x35,
  Insert: 0x72, // Help sits where Insert is on PC keyboards
  Help: 0x72,
  Home: 0x73,
  End: 0x77,
  PageUp: 0x74,
  PageDown: 0x79,
  ArrowLeft: 0x7b,
  ArrowRight: 0x7c,
  ArrowDown: 0x7d,
  ArrowUp: 0x7e,
  F1: 0x7a,
  F2: 0x78,
  F3: 0x63,
  F4: 0x76,
  F5: 0x60,
  F6: 0x61,
  F7: 0x62,
  F8: 0x64,
  F9: 0x65,
  F10: 0x6d,
  F11: 0x67,
  F12: 0x6f,
  F13: 0x69,
  F14: 0x6b,
  F15: 0x71,
  F16: 0x6a,
  F17: 0x40,
  F18: 0x4f,
  F19: 0x50,
  F20: 0x5a,
  CapsLock: 0x39,
  NumLock: 0x47, // Keypad Clear
  Numpad0: 0x52,
  Numpad1: 0x53,
  Numpad2: 0x54,
  Numpad3: 0x55,
  Numpad4: 0x56,
  Numpad5: 0x57,
  Numpad6: 0x58,
  Numpad7: 0x59,
  Numpad8: 0x5b,
  Numpad9: 0x5c,
  NumpadAdd: 0x45,
  NumpadSubtract: 0x4e,
  NumpadMultiply: 0x43,
  NumpadDivide: 0x4b,
  NumpadDecimal: 0x41,
  NumpadEnter: 0x4c,
  NumpadEqual: 0x51,
  AudioVolumeUp: 0x48,
  AudioVolumeDown: 0x49,
  AudioVolumeMute: 0x4a,
  IntlBackslash: 0x0a, // kVK_ISO_Section
};

/** Keypad keys carry the numeric-pad flag. */
export const KEYPAD_CODES: ReadonlySet<number> = new Set([
  0x52,
  0x53,
  0x54,
  0x55,
  0x56,
  0x57,
  0x58,
  0x59,
  0x5b,
  0x5c,
  0x45,
  0x4e,
  0x43,
  0x4b,
  0x41,
  0x4c,
  0x51,
  0x47,
  0x7b,
  0x7c,
  0x7d,
  0x7e, // arrows also carry it, as the hardware sends them
]);

const US_ANSI = "asdfhgzxcv\u0000bqweryt123465=97-80]ou[ip\u0000lj'k;\\,/nm.\u0000 `";
const US_ANSI_SHIFTED = 'ASDFHGZXCV\u0000BQWERYT!@#$^%+(&_*)}OU{IP\u0000LJ"K:|<?NM>\u0000 ~';

/** The US ANSI position of a printable character and whether Shift types it; null when none does. */
export function charKeyCode(char: string): { code: number; shift: boolean } | null {
  if (char.length !== 1 || char === "\u0000") return null;
  const plain = US_ANSI.indexOf(char);
  if (plain >= 0) return { code: plain, shift: false };
  const shifted = US_ANSI_SHIFTED.indexOf(char);
  return shifted >= 0 ? { code: shifted, shift: true } : null;
}

/** The event flag of each modifier (super is Command, alt is Option). */
export const MODIFIER_FLAGS: Readonly<Record<Modifier, bigint>> = {
  ctrl: CGEventFlags.Control,
  shift: CGEventFlags.Shift,
  alt: CGEventFlags.Alternate,
  super: CGEventFlags.Command,
};

/** The key code pressed for each modifier. */
export const MODIFIER_CODES: Readonly<Record<Modifier, number>> = {
  ctrl: 0x3b,
  shift: 0x38,
  alt: 0x3a,
  super: 0x37,
};

/** The modifier a key code stands for, or null. */
export function modifierOfCode(code: number): Modifier | null {
  const sided: Record<number, Modifier> = {
    0x38: "shift",
    0x3c: "shift",
    0x3b: "ctrl",
    0x3e: "ctrl",
    0x3a: "alt",
    0x3d: "alt",
    0x37: "super",
    0x36: "super",
  };
  return sided[code] ?? null;
}
