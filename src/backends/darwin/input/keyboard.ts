/**
 * A keyboard made of Quartz key events. Named keys and shortcut characters go by
 * virtual key code with modifier flags; text goes as Unicode strings on the events
 * (one grapheme per key press, so no layout, dead key or input method is involved).
 *
 * @module
 */
import { CGEventFlags } from "../../../../ffi/darwin/core_graphics.ts";
import { DriverError } from "../../../ports/errors.ts";
import { graphemes, type KeySpec, type Modifier, modifierOf, parseKey } from "../../../lib/keys/key_names.ts";
import type { RawKeyboard } from "../../../ports/input.ts";
import { charKeyCode, KEYPAD_CODES, MODIFIER_CODES, MODIFIER_FLAGS, NAMED_KEY_CODES } from "../key_codes.ts";
import { type EventPoster, type EventRoute, MAX_EVENT_STRING } from "./events.ts";
import { settled } from "../settled.ts";

/** One key as Quartz sends it. */
interface Stroke {
  code: number;
  /** Flags the key itself needs (Shift for "A", the keypad flag). */
  flags: bigint;
  /** Characters to carry, for keys without a US ANSI position. */
  text?: string;
}

/** The keyboard of one channel. */
export class DarwinKeyboard implements RawKeyboard {
  /** Held keys by name, with the stroke that pressed them. */
  readonly #held = new Map<string, Stroke>();
  readonly #modifiers = new Set<Modifier>();

  constructor(readonly poster: EventPoster, readonly route: () => EventRoute) {}

  /** Modifier flags currently held (stamped on pointer events of the same channel). */
  flags(): bigint {
    let flags = 0n;
    for (const modifier of this.#modifiers) flags |= MODIFIER_FLAGS[modifier];
    return flags;
  }

  #stroke(key: string): Stroke {
    const spec: KeySpec = parseKey(key, "key");
    if (spec.kind === "named") {
      const code = NAMED_KEY_CODES[spec.name];
      if (code === undefined) {
        throw new DriverError("unsupported_platform", `A Mac keyboard has no ${spec.name} key`, {
          key: spec.name,
          hint: "use a key a Mac keyboard has (Command is super, Option is alt)",
        });
      }
      return { code, flags: KEYPAD_CODES.has(code) ? CGEventFlags.NumericPad : 0n };
    }
    const position = charKeyCode(spec.char);
    if (position) return { code: position.code, flags: position.shift ? CGEventFlags.Shift : 0n };
    return { code: 0, flags: 0n, text: spec.char };
  }

  #send(stroke: Stroke, down: boolean, extra: bigint): void {
    this.poster.key(this.route(), stroke.code, down, this.flags() | stroke.flags | extra, stroke.text);
  }

  /** Presses and releases `key` with `modifiers` held around it (ctrl, shift, alt, super = Command). */
  async press(key: string, modifiers: readonly string[]): Promise<void> {
    const stroke = this.#stroke(key);
    const added: Modifier[] = [];
    for (const name of modifiers) {
      const modifier = modifierOf(name);
      if (!modifier) {
        throw new DriverError("invalid_arguments", `"${name}" is not a modifier`, { field: "modifiers" });
      }
      if (this.#modifiers.has(modifier)) continue;
      this.#modifiers.add(modifier);
      added.push(modifier);
      this.poster.key(this.route(), MODIFIER_CODES[modifier], true, this.flags());
    }
    try {
      this.#send(stroke, true, 0n);
      this.#send(stroke, false, 0n);
    } finally {
      for (const modifier of added.reverse()) {
        this.#modifiers.delete(modifier);
        this.poster.key(this.route(), MODIFIER_CODES[modifier], false, this.flags());
      }
    }
    await Promise.resolve();
  }

  /** Presses a key and keeps it held (a modifier then applies to later keys and clicks). */
  down(key: string): Promise<void> {
    return settled(() => {
      const stroke = this.#stroke(key);
      const modifier = modifierOf(key);
      if (modifier) this.#modifiers.add(modifier);
      this.#held.set(key, stroke);
      this.#send(stroke, true, 0n);
      return;
    });
  }

  /** Releases a held key. */
  up(key: string): Promise<void> {
    return settled(() => {
      const stroke = this.#held.get(key) ?? this.#stroke(key);
      const modifier = modifierOf(key);
      if (modifier) this.#modifiers.delete(modifier);
      this.#held.delete(key);
      this.#send(stroke, false, 0n);
      return;
    });
  }

  /**
   * Types text one grapheme per key press, as Unicode strings on the events (newline is
   * Return, tab is Tab). Returns how many graphemes were posted.
   */
  async typeText(text: string, delayMs = 0): Promise<number> {
    let delivered = 0;
    for (const grapheme of graphemes(text)) {
      if (grapheme === "\n" || grapheme === "\r\n" || grapheme === "\r") await this.press("Enter", []);
      else if (grapheme === "\t") await this.press("Tab", []);
      else {
        const position = grapheme.length === 1 ? charKeyCode(grapheme) : null;
        // Longer clusters (a family emoji) ride on several events of at most 20 UTF-16 units.
        for (const piece of chunkUnits(grapheme, MAX_EVENT_STRING)) {
          const stroke: Stroke = { code: position?.code ?? 0, flags: 0n, text: piece };
          this.#send(stroke, true, 0n);
          this.#send(stroke, false, 0n);
        }
      }
      delivered++;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    return delivered;
  }

  /** Releases every held key and modifier. */
  async releaseAll(): Promise<void> {
    for (const key of [...this.#held.keys()].reverse()) await this.up(key);
    this.#modifiers.clear();
  }
}

/** Splits text into pieces of at most `max` UTF-16 units, never inside a surrogate pair. */
export function chunkUnits(text: string, max: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const codePoint of text) {
    if (piece.length + codePoint.length > max) {
      pieces.push(piece);
      piece = "";
    }
    piece += codePoint;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
