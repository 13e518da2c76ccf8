/**
 * The user's own pointer and keyboard through SendInput: used inside foreground
 * transactions and for the desktop scope. Keys held by `down` are tracked so
 * `releaseAll` can put every key and button back up.
 *
 * @module
 */
import { handleValue } from "../../../../ffi/windows/_win.ts";
import { user32 } from "../../../../ffi/windows/user32.ts";
import type { Point } from "../../../ports/geometry.ts";
import type { MouseButton, RawKeyboard, RawPointer } from "../../../ports/input.ts";
import { DriverError } from "../../../ports/errors.ts";
import { isConsoleWindow, textKeys, writeConsoleKeys } from "../win32/console.ts";
import { sendMessage } from "../win32/hwnd.ts";
import { consoleKey } from "./console_keys.ts";
import { VK } from "./key_codes.ts";
import { type KeyEvent, keyInputs, pointerInputs, sendInputs } from "./send_input.ts";
import { resolveKey } from "./keys.ts";
import { WM } from "../../../../ffi/windows/user32.ts";

/**
 * Counts input events sent since the last settle, and waits until the foreground
 * thread has handled them. Each GetMessage call of that thread handles our pending
 * SendMessage first and then takes one queued message, so after 2N+1 round trips the N
 * events (and the WM_CHAR each key-down makes) are handled. Bounded by a time budget.
 */
export class InputSettler {
  #pending = 0;

  /** Records `count` sent events; returns `count`. */
  sent(count: number): number {
    this.#pending += count;
    return count;
  }

  /** Waits (up to `budgetMs`) until the foreground window's thread handled what was sent. */
  async settle(budgetMs = 3_000): Promise<void> {
    const pending = this.#pending;
    this.#pending = 0;
    // SendInput returns once the events are in the system input queue; let them reach the thread.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const foreground = handleValue(user32.symbols.GetForegroundWindow());
    if (!foreground) return;
    const deadline = performance.now() + budgetMs;
    for (let i = 0; i <= Math.min(2 * pending, 4096) && performance.now() < deadline; i++) {
      if (sendMessage(foreground, WM.NULL, 0, 0) === null) return;
    }
  }
}

/** The system pointer. */
export class SendInputPointer implements RawPointer {
  #held = new Set<MouseButton>();
  constructor(readonly settler: InputSettler) {}

  move(point: Point): Promise<void> {
    this.settler.sent(sendInputs(pointerInputs([{ move: point }])));
    return Promise.resolve();
  }
  button(button: MouseButton, down: boolean): Promise<void> {
    this.settler.sent(sendInputs(pointerInputs([{ button, down }])));
    if (down) this.#held.add(button);
    else this.#held.delete(button);
    return Promise.resolve();
  }
  wheel(dx: number, dy: number): Promise<void> {
    const events = [
      ...Array.from({ length: Math.abs(dy) }, () => ({ wheel: dy > 0 ? -1 : 1, horizontal: false })),
      ...Array.from({ length: Math.abs(dx) }, () => ({ wheel: dx > 0 ? 1 : -1, horizontal: true })),
    ];
    if (events.length > 0) this.settler.sent(sendInputs(pointerInputs(events)));
    return Promise.resolve();
  }
  async releaseAll(): Promise<void> {
    for (const button of [...this.#held]) await this.button(button, false);
  }
  async sync(): Promise<void> {
    await this.settler.settle();
  }
  position(): Promise<Point | null> {
    const point = new Int32Array(2);
    return Promise.resolve(user32.symbols.GetCursorPos(point) ? { x: point[0], y: point[1] } : null);
  }
}

/** The foreground window when it is a console window, else 0. */
function foregroundConsole(): number {
  const foreground = handleValue(user32.symbols.GetForegroundWindow());
  return foreground && isConsoleWindow(foreground) ? foreground : 0;
}

function unreachableConsole(windowId: number): DriverError {
  return new DriverError("delivery_failed", `Cannot reach the input of the console in window ${windowId}`, {
    hint: "check that the console's program still runs",
  });
}

/**
 * The user's keyboard through SendInput. A console window in the foreground gets key records in
 * its input buffer instead (win32/console.ts): Wine's console drops SendInput's Unicode packets,
 * and records carry any character on Windows too.
 */
export class SendInputKeyboard implements RawKeyboard {
  #held: { vk: number; extended: boolean }[] = [];
  constructor(readonly settler: InputSettler) {}

  press(key: string, modifiers: readonly string[]): Promise<void> {
    const resolved = resolveKey(key);
    const console = foregroundConsole();
    if (console) {
      const named = modifiers.map((m) => resolveKey(m)).flatMap((m) =>
        m.kind === "modifier" ? [m.modifier] : []
      );
      if (!writeConsoleKeys(console, [consoleKey(key, named)])) throw unreachableConsole(console);
      return Promise.resolve();
    }
    const mods = modifiers.map((m) => resolveKey(m)).flatMap((m) => m.kind === "modifier" ? [m.vk] : []);
    const events: KeyEvent[] = [];
    if (resolved.kind === "text") {
      for (const vk of mods) events.push({ vk, up: false });
      for (let i = 0; i < resolved.text.length; i++) {
        events.push({ unit: resolved.text.charCodeAt(i), up: false }, {
          unit: resolved.text.charCodeAt(i),
          up: true,
        });
      }
      for (const vk of [...mods].reverse()) events.push({ vk, up: true });
    } else {
      const held = new Set(mods);
      if (resolved.kind === "vk") {
        if (resolved.shift) held.add(VK.SHIFT);
        if (resolved.ctrl) held.add(VK.CONTROL);
        if (resolved.alt) held.add(VK.MENU);
      }
      const extended = resolved.kind === "vk" && resolved.extended;
      for (const vk of held) events.push({ vk, up: false });
      events.push({ vk: resolved.vk, extended, up: false }, { vk: resolved.vk, extended, up: true });
      for (const vk of [...held].reverse()) events.push({ vk, up: true });
    }
    this.settler.sent(sendInputs(keyInputs(events)));
    return Promise.resolve();
  }

  down(key: string): Promise<void> {
    const resolved = resolveKey(key);
    if (resolved.kind === "text") return this.press(key, []);
    const extended = resolved.kind === "vk" && resolved.extended;
    this.settler.sent(sendInputs(keyInputs([{ vk: resolved.vk, extended, up: false }])));
    this.#held.push({ vk: resolved.vk, extended });
    return Promise.resolve();
  }

  up(key: string): Promise<void> {
    const resolved = resolveKey(key);
    if (resolved.kind === "text") return Promise.resolve();
    const index = this.#held.findIndex((h) => h.vk === resolved.vk);
    if (index < 0) return Promise.resolve();
    const [held] = this.#held.splice(index, 1);
    this.settler.sent(sendInputs(keyInputs([{ vk: held.vk, extended: held.extended, up: true }])));
    return Promise.resolve();
  }

  async typeText(text: string, delayMs = 0): Promise<number> {
    let delivered = 0;
    const characters = [...text];
    const console = foregroundConsole();
    if (console) {
      for (const part of delayMs > 0 ? characters : [text]) {
        if (!writeConsoleKeys(console, textKeys(part))) {
          if (delivered === 0) throw unreachableConsole(console);
          break;
        }
        delivered += [...part].length;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      return delivered;
    }
    // Without a delay, one SendInput batch per 64 characters keeps each batch atomic and small.
    const chunk = delayMs > 0 ? 1 : 64;
    for (let i = 0; i < characters.length; i += chunk) {
      const part = characters.slice(i, i + chunk);
      const events: KeyEvent[] = [];
      for (const character of part) {
        if (character === "\n") {
          events.push({ vk: VK.RETURN, up: false }, { vk: VK.RETURN, up: true });
          continue;
        }
        for (let u = 0; u < character.length; u++) {
          events.push({ unit: character.charCodeAt(u), up: false }, {
            unit: character.charCodeAt(u),
            up: true,
          });
        }
      }
      const sent = this.settler.sent(sendInputs(keyInputs(events)));
      if (sent < events.length) break;
      delivered += part.length;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    await this.settler.settle();
    return delivered;
  }

  async releaseAll(): Promise<void> {
    const held = this.#held.splice(0).reverse();
    if (held.length > 0) this.settler.sent(sendInputs(keyInputs(held.map((h) => ({ ...h, up: true })))));
    await Promise.resolve();
  }
}
