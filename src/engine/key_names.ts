/**
 * Key names as the keyboard tools accept them, validated before anything is sent
 * (the parsing itself lives in src/lib/keys/key_names.ts).
 *
 * @module
 */
import { formatKey, parseCombo, parseHotkeyList, parseKey } from "../lib/keys/key_names.ts";

/** A press_key call: the key (which may itself be a combo) and the extra modifiers. */
export function parsePress(key: string, modifiers: readonly string[]): { key: string; modifiers: string[] } {
  const combo = key.length > 1 && key.includes("+")
    ? parseCombo(key, "key")
    : { modifiers: [], key: parseKey(key, "key") };
  const extra = parseHotkeyList([...modifiers, "a"], "modifiers").modifiers;
  return { key: formatKey(combo.key), modifiers: [...new Set([...extra, ...combo.modifiers])] };
}

/** Splits a hotkey list into modifiers and one final key. */
export function parseHotkey(keys: readonly string[]): { key: string; modifiers: string[] } {
  const combo = parseHotkeyList(keys, "keys");
  return { key: formatKey(combo.key), modifiers: [...combo.modifiers] };
}
