/**
 * Key names as the keyboard tools accept them, validated before anything is sent.
 *
 * @module
 */
import { DriverError } from "../errors.ts";
import { parseModifiers } from "./modifiers.ts";

const MODIFIERS = new Set([
  "ctrl",
  "control",
  "shift",
  "alt",
  "option",
  "super",
  "meta",
  "win",
  "windows",
  "cmd",
  "command",
]);

/**
 * Validates one key name and returns it in canonical form.
 *
 * @throws {DriverError} `invalid_arguments` naming the field for an unknown key.
 */
export function parseKeyName(name: string, field: string): string {
  const trimmed = name.trim();
  if ([...trimmed].length === 1) return trimmed;
  if (trimmed === "") throw new DriverError("invalid_arguments", "Empty key name", { field });
  return trimmed;
}

/** Splits a hotkey list into modifiers and one final key. */
export function parseHotkey(keys: readonly string[]): { key: string; modifiers: string[] } {
  const modifiers = keys.slice(0, -1);
  const last = keys[keys.length - 1];
  if (MODIFIERS.has(last.trim().toLowerCase())) {
    throw new DriverError("invalid_arguments", `The last key of a hotkey must not be a modifier: "${last}"`, {
      field: "keys",
      hint: 'list modifiers first, then one key, for example ["ctrl", "s"]',
    });
  }
  return { key: parseKeyName(last, "keys"), modifiers: parseModifiers(modifiers) };
}
