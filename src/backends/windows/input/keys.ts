/**
 * Resolving what a keyboard call names (a canonical key, a modifier, a character) into
 * Windows virtual keys with the shift state they need, or a UTF-16 fallback for
 * characters the current layout cannot type.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { modifierOf, parseKey } from "../../../lib/keys/key_names.ts";
import { kernel32 } from "../../../../ffi/windows/kernel32.ts";
import { user32 } from "../../../../ffi/windows/user32.ts";
import { MODIFIER_VK, virtualKey } from "./key_codes.ts";

/** A modifier as core names it. */
export type ModifierName = "ctrl" | "shift" | "alt" | "super";

/** What one key name becomes. */
export type ResolvedKey =
  | { kind: "modifier"; modifier: ModifierName; vk: number }
  | { kind: "vk"; vk: number; extended: boolean; shift: boolean; ctrl: boolean; alt: boolean }
  | { kind: "text"; text: string };

/**
 * Resolves a key name for the current keyboard layout.
 *
 * @throws {DriverError} `invalid_arguments` for an unknown name or a key Windows has no code for
 */
export function resolveKey(name: string): ResolvedKey {
  const key = parseKey(name);
  const modifier = modifierOf(key);
  if (modifier) return { kind: "modifier", modifier, vk: MODIFIER_VK[modifier] };
  if (key.kind === "named") {
    const vk = virtualKey(key.name);
    if (!vk) {
      throw new DriverError("invalid_arguments", `Key "${key.name}" has no Windows virtual-key code`, {
        field: "key",
        hint: "use another key; Fn and brightness keys never reach apps on Windows",
      });
    }
    return { kind: "vk", vk: vk.vk, extended: vk.extended, shift: false, ctrl: false, alt: false };
  }
  const units = [...key.char].map((c) => c.charCodeAt(0));
  if (key.char.length === 1) {
    const layout = user32.symbols.GetKeyboardLayout(kernel32.symbols.GetCurrentThreadId());
    const scan = user32.symbols.VkKeyScanExW(units[0], layout);
    if (scan !== -1 && (scan & 0xff) !== 0xff) {
      const state = (scan >> 8) & 0xff;
      return {
        kind: "vk",
        vk: scan & 0xff,
        extended: false,
        shift: (state & 1) !== 0,
        ctrl: (state & 2) !== 0,
        alt: (state & 4) !== 0,
      };
    }
  }
  return { kind: "text", text: key.char };
}
