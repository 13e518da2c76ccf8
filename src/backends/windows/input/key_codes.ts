/**
 * Canonical key names (src/lib/keys/key_names.ts) to Windows virtual-key codes, and
 * the scan codes and extended-key bits that make posted WM_KEYDOWN/UP look like real
 * keystrokes.
 *
 * @module
 */
import type { CanonicalKey } from "../../../lib/keys/key_names.ts";

/** A virtual key and whether it is an extended key (the right-hand cluster, arrows, ...). */
export interface VirtualKey {
  vk: number;
  extended: boolean;
}

const E = true;
const KEYS: Partial<Record<CanonicalKey, [number, boolean?]>> = {
  Shift: [0x10],
  ShiftLeft: [0xa0],
  ShiftRight: [0xa1],
  Control: [0x11],
  ControlLeft: [0xa2],
  ControlRight: [0xa3, E],
  Alt: [0x12],
  AltLeft: [0xa4],
  AltRight: [0xa5, E],
  AltGraph: [0xa5, E],
  Super: [0x5b, E],
  SuperLeft: [0x5b, E],
  SuperRight: [0x5c, E],
  Enter: [0x0d],
  Tab: [0x09],
  Space: [0x20],
  Backspace: [0x08],
  Delete: [0x2e, E],
  Escape: [0x1b],
  Insert: [0x2d, E],
  Home: [0x24, E],
  End: [0x23, E],
  PageUp: [0x21, E],
  PageDown: [0x22, E],
  ArrowUp: [0x26, E],
  ArrowDown: [0x28, E],
  ArrowLeft: [0x25, E],
  ArrowRight: [0x27, E],
  ContextMenu: [0x5d, E],
  Help: [0x2f],
  F1: [0x70],
  F2: [0x71],
  F3: [0x72],
  F4: [0x73],
  F5: [0x74],
  F6: [0x75],
  F7: [0x76],
  F8: [0x77],
  F9: [0x78],
  F10: [0x79],
  F11: [0x7a],
  F12: [0x7b],
  F13: [0x7c],
  F14: [0x7d],
  F15: [0x7e],
  F16: [0x7f],
  F17: [0x80],
  F18: [0x81],
  F19: [0x82],
  F20: [0x83],
  F21: [0x84],
  F22: [0x85],
  F23: [0x86],
  F24: [0x87],
  CapsLock: [0x14],
  NumLock: [0x90, E],
  ScrollLock: [0x91],
  PrintScreen: [0x2c, E],
  Pause: [0x13],
  IntlBackslash: [0xe2],
  Numpad0: [0x60],
  Numpad1: [0x61],
  Numpad2: [0x62],
  Numpad3: [0x63],
  Numpad4: [0x64],
  Numpad5: [0x65],
  Numpad6: [0x66],
  Numpad7: [0x67],
  Numpad8: [0x68],
  Numpad9: [0x69],
  NumpadAdd: [0x6b],
  NumpadSubtract: [0x6d],
  NumpadMultiply: [0x6a],
  NumpadDivide: [0x6f, E],
  NumpadDecimal: [0x6e],
  NumpadEnter: [0x0d, E],
  MediaPlayPause: [0xb3, E],
  MediaStop: [0xb2, E],
  MediaTrackNext: [0xb0, E],
  MediaTrackPrevious: [0xb1, E],
  AudioVolumeUp: [0xaf, E],
  AudioVolumeDown: [0xae, E],
  AudioVolumeMute: [0xad, E],
  Sleep: [0x5f],
  BrowserBack: [0xa6, E],
  BrowserForward: [0xa7, E],
  BrowserRefresh: [0xa8, E],
  BrowserHome: [0xac, E],
  BrowserSearch: [0xaa, E],
  LaunchMail: [0xb4, E],
  LaunchApp1: [0xb6, E],
  LaunchApp2: [0xb7, E],
};

/** The virtual key of a canonical key name, or null when Windows has none (Fn, BrightnessUp, ...). */
export function virtualKey(name: CanonicalKey): VirtualKey | null {
  const entry = KEYS[name];
  return entry ? { vk: entry[0], extended: entry[1] ?? false } : null;
}

/** Virtual keys of the modifiers as core names them. */
export const MODIFIER_VK: Record<string, number> = { ctrl: 0x11, shift: 0x10, alt: 0x12, super: 0x5b };

/** VK_SHIFT, VK_CONTROL, VK_MENU and their sided codes, for keyboard-state bits. */
export const VK = {
  SHIFT: 0x10,
  CONTROL: 0x11,
  MENU: 0x12,
  LSHIFT: 0xa0,
  RSHIFT: 0xa1,
  LCONTROL: 0xa2,
  RCONTROL: 0xa3,
  LMENU: 0xa4,
  RMENU: 0xa5,
  LWIN: 0x5b,
  RWIN: 0x5c,
  RETURN: 0x0d,
} as const;
