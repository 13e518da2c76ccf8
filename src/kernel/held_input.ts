/**
 * What the core holds down: every key and button pressed through `down`/`button(…, true)`
 * on a channel's keyboard or pointer is recorded here until its release, so a failure
 * halfway through a gesture or a combo releases exactly what was pressed, in reverse
 * order, on every OS. Back ends only send raw down and up (Playwright's `Keyboard` over
 * `RawKeyboard` keeps its `_pressedKeys` the same way). `press` and `typeText` are atomic
 * raw operations that leave nothing held.
 *
 * @module
 */
import type { InputBackend, InputChannel, MouseButton, RawKeyboard, RawPointer } from "../ports/input.ts";

/** The keys and buttons one channel holds, oldest first. */
interface Held {
  keys: string[];
  buttons: MouseButton[];
}

/** Tracks held keys and buttons over a back end's channel devices. */
export class HeldInput {
  readonly #held = new Map<InputChannel, Held>();
  readonly #pointers = new Map<RawPointer, RawPointer>();
  readonly #keyboards = new Map<RawKeyboard, RawKeyboard>();

  constructor(readonly input: InputBackend) {}

  #of(channel: InputChannel): Held {
    let held = this.#held.get(channel);
    if (!held) this.#held.set(channel, held = { keys: [], buttons: [] });
    return held;
  }

  /** The channel's pointer, its button presses recorded. */
  async pointer(channel: InputChannel): Promise<RawPointer> {
    const raw = await this.input.pointer(channel);
    let tracked = this.#pointers.get(raw);
    if (!tracked) {
      const held = this.#of(channel);
      tracked = {
        move: (point) => raw.move(point),
        wheel: (dx, dy, signal) => raw.wheel(dx, dy, signal),
        sync: () => raw.sync(),
        position: () => raw.position(),
        via: () => raw.via?.() ?? null,
        async button(button, down) {
          if (down) {
            if (!held.buttons.includes(button)) held.buttons.push(button);
          } else {
            held.buttons = held.buttons.filter((b) => b !== button);
          }
          await raw.button(button, down);
        },
        releaseAll: () => releasePointer(raw, held),
      };
      this.#pointers.set(raw, tracked);
    }
    return tracked;
  }

  /** The channel's keyboard, its key downs recorded. */
  async keyboard(channel: InputChannel): Promise<RawKeyboard> {
    const raw = await this.input.keyboard(channel);
    let tracked = this.#keyboards.get(raw);
    if (!tracked) {
      const held = this.#of(channel);
      tracked = {
        press: (key, modifiers) => raw.press(key, modifiers),
        typeText: (text, delayMs, signal) => raw.typeText(text, delayMs, signal),
        async down(key) {
          // Recorded first: a down that fails halfway may have pressed something.
          if (!held.keys.includes(key)) held.keys.push(key);
          await raw.down(key);
        },
        async up(key) {
          held.keys = held.keys.filter((k) => k !== key);
          await raw.up(key);
        },
        releaseAll: () => releaseKeyboard(raw, held),
      };
      this.#keyboards.set(raw, tracked);
    }
    return tracked;
  }

  /** What a channel holds now (newest last). */
  held(channel: InputChannel): { keys: readonly string[]; buttons: readonly MouseButton[] } {
    const held = this.#held.get(channel);
    return { keys: [...(held?.keys ?? [])], buttons: [...(held?.buttons ?? [])] };
  }

  /**
   * Releases every key and button the core holds on any channel, newest first, then lets
   * the back end drop anything it still holds itself (its optional safety net).
   */
  async releaseAll(): Promise<void> {
    for (const [channel, held] of this.#held) {
      if (held.keys.length) await releaseKeyboard(await this.input.keyboard(channel), held);
      if (held.buttons.length) await releasePointer(await this.input.pointer(channel), held);
    }
    await this.input.releaseAll?.();
  }
}

async function releaseKeyboard(raw: RawKeyboard, held: Held): Promise<void> {
  for (const key of held.keys.splice(0).reverse()) await raw.up(key).catch(() => {});
}

async function releasePointer(raw: RawPointer, held: Held): Promise<void> {
  for (const button of held.buttons.splice(0).reverse()) await raw.button(button, false).catch(() => {});
}
