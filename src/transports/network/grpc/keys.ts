/**
 * cua.env.v1.Key values and KeyInput as the keyboard tools spell keys: named keys
 * by their W3C-style canonical names (`Enter`, `PageUp`, `ArrowLeft`, `F5`,
 * `NumpadAdd`, `AudioVolumeUp`), letter, digit and punctuation keys as the
 * unshifted character of the US layout, `KEY_META*` as Super.
 *
 * @module
 */
import { formatKey, keyFromProtoName } from "../../../lib/keys/key_names.ts";
import { invalid } from "./errors.ts";
import { Key, type KeyInput, KeySchema } from "./gen/cua/env/v1/computer_pb.ts";

const MODIFIERS: Partial<Record<Key, string>> = {
  [Key.SHIFT]: "shift",
  [Key.SHIFT_LEFT]: "shift",
  [Key.SHIFT_RIGHT]: "shift",
  [Key.CONTROL]: "ctrl",
  [Key.CONTROL_LEFT]: "ctrl",
  [Key.CONTROL_RIGHT]: "ctrl",
  [Key.ALT]: "alt",
  [Key.ALT_LEFT]: "alt",
  [Key.ALT_RIGHT]: "alt",
  [Key.META]: "super",
  [Key.META_LEFT]: "super",
  [Key.META_RIGHT]: "super",
};

/**
 * The tool spelling of a named key.
 *
 * @throws {ConnectError} INVALID_ARGUMENT for KEY_UNSPECIFIED or an unknown number.
 */
export function keyName(key: Key, field: string): string {
  const name = KeySchema.values.find((value) => value.number === key)?.name;
  if (!name || name === "KEY_UNSPECIFIED") {
    throw invalid(`${field}: a key is required (not KEY_UNSPECIFIED)`, field);
  }
  try {
    return formatKey(keyFromProtoName(name, field));
  } catch (error) {
    throw invalid(`${field}: ${error instanceof Error ? error.message : String(error)}`, field);
  }
}

/** The tool spelling of a KeyInput: a named key or one Unicode scalar value. */
export function keyInputName(input: KeyInput | undefined, field: string): string {
  if (!input || input.key.case === undefined) throw invalid(`${field} is required`, field);
  if (input.key.case === "named") return keyName(input.key.value, field);
  const chars = [...input.key.value];
  if (chars.length !== 1) throw invalid(`${field}.character must be exactly one Unicode scalar value`, field);
  return chars[0];
}

/** Modifier names (ctrl, shift, alt, super) for Key values; other keys are rejected. */
export function modifierNames(keys: readonly Key[], field: string): string[] {
  const names: string[] = [];
  for (const key of keys) {
    const name = MODIFIERS[key];
    if (!name) throw invalid(`${field}: ${Key[key] ?? key} is not a modifier key`, field);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Hotkey key names: modifier keys as ctrl/shift/alt/super (as the hotkey tool lists them), others by name. */
export function hotkeyNames(keys: readonly KeyInput[], field: string): string[] {
  return keys.map((input, i) => {
    if (input.key.case === "named" && MODIFIERS[input.key.value]) return MODIFIERS[input.key.value]!;
    return keyInputName(input, `${field}[${i}]`);
  });
}
