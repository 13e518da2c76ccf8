/**
 * Keys for a console's input buffer (win32/console.ts): a named key or a character with
 * modifiers becomes one key record with the virtual key, its scan code, the UTF-16 unit the key
 * gives (Enter a carriage return, Ctrl+letter its control character, a printable key its
 * character) and the modifier bits a console program reads (dwControlKeyState).
 *
 * @module
 */
import { CONSOLE_KEY_STATE } from "../../../../ffi/windows/kernel32.ts";
import { MAPVK, user32 } from "../../../../ffi/windows/user32.ts";
import type { ConsoleKey } from "../win32/console.ts";
import { type ModifierName, resolveKey } from "./keys.ts";

const MODIFIER_BITS: Record<ModifierName, number> = {
  ctrl: CONSOLE_KEY_STATE.LEFT_CTRL,
  shift: CONSOLE_KEY_STATE.SHIFT,
  alt: CONSOLE_KEY_STATE.LEFT_ALT,
  super: 0,
};
/** Units of keys MapVirtualKey has no character for. */
const KEY_UNITS: Record<number, number> = { 0x08: 0x08, 0x09: 0x09, 0x0d: 0x0d, 0x1b: 0x1b, 0x20: 0x20 };

/** The console key for `key` pressed with `modifiers`. */
export function consoleKey(key: string, modifiers: readonly ModifierName[]): ConsoleKey {
  const resolved = resolveKey(key);
  const held = new Set(modifiers);
  if (resolved.kind === "text") {
    return { vk: 0, scan: 0, unit: resolved.text.charCodeAt(0), controlState: bits(held) };
  }
  if (resolved.kind === "modifier") {
    held.add(resolved.modifier);
    return { vk: resolved.vk, scan: scanOf(resolved.vk), unit: 0, controlState: bits(held) };
  }
  if (resolved.shift) held.add("shift");
  if (resolved.ctrl) held.add("ctrl");
  if (resolved.alt) held.add("alt");
  // A character named by itself gives itself (a shifted "!" included), a named key what the layout maps.
  const single = [...key].length === 1 ? key.charCodeAt(0) : 0;
  const letter = (single | 0x20) >= 0x61 && (single | 0x20) <= 0x7a;
  return {
    vk: resolved.vk,
    scan: scanOf(resolved.vk),
    unit: single ? (held.has("ctrl") && letter ? single & 0x1f : single) : unitOf(resolved.vk, held),
    controlState: bits(held) | (resolved.extended ? 0x100 : 0),
  };
}

function bits(held: ReadonlySet<ModifierName>): number {
  let out = 0;
  for (const modifier of held) out |= MODIFIER_BITS[modifier];
  return out;
}

function scanOf(vk: number): number {
  return user32.symbols.MapVirtualKeyExW(vk, MAPVK.VK_TO_VSC, null) & 0xff;
}

/** The unit a key gives with these modifiers (0 for none: arrows, function keys). */
function unitOf(vk: number, held: ReadonlySet<ModifierName>): number {
  const plain = KEY_UNITS[vk] ?? (user32.symbols.MapVirtualKeyExW(vk, MAPVK.VK_TO_CHAR, null) & 0x7fff);
  if (plain === 0) return 0;
  if (held.has("ctrl") && plain >= 0x41 && plain <= 0x5a) return plain & 0x1f;
  if (plain >= 0x41 && plain <= 0x5a && !held.has("shift")) return plain + 0x20;
  return plain;
}
