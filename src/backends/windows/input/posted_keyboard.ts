/**
 * The background keyboard on Windows: WM_KEYDOWN/WM_KEYUP and WM_CHAR posted to the
 * focused control of the target window's thread. The foreground window, the real
 * keyboard state and the caret of other apps stay untouched.
 *
 * Text goes as WM_CHAR, one per UTF-16 unit (a character outside the BMP arrives as its
 * surrogate pair, as real typing delivers it). Named keys go as key-down/up, which the
 * app's TranslateMessage turns into characters where real keys would. Modifiers cannot
 * be posted: apps read them from the thread's key state. While modifiers are held, the
 * driver attaches to the target thread's input state, sets their bits with
 * SetKeyboardState for the keys it posts, waits until the app handled them, and puts the
 * state back.
 *
 * A console window gets key records in its input buffer instead (win32/console.ts): posted
 * messages would lose every character no key of the layout types.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { handleValue } from "../../../../ffi/windows/_win.ts";
import { kernel32 } from "../../../../ffi/windows/kernel32.ts";
import { GUITHREADINFO, MAPVK, MK, user32, WM } from "../../../../ffi/windows/user32.ts";
import type { RawKeyboard } from "../../../ports/input.ts";
import { type ConsoleKey, isConsoleWindow, textKeys, writeConsoleKeys } from "../win32/console.ts";
import { isWindow, rootOf, windowOwner } from "../win32/hwnd.ts";
import { consoleKey } from "./console_keys.ts";
import { VK } from "./key_codes.ts";
import { type ModifierName, resolveKey } from "./keys.ts";
import type { PostedQueue } from "./post.ts";

const MODIFIER_STATE_KEYS: Record<ModifierName, number[]> = {
  ctrl: [VK.CONTROL, VK.LCONTROL],
  shift: [VK.SHIFT, VK.LSHIFT],
  alt: [VK.MENU, VK.LMENU],
  super: [VK.LWIN],
};

/** The focused window of the thread that owns `windowId`, or the window itself. */
export function focusedControl(windowId: number): number {
  const { threadId } = windowOwner(windowId);
  const info = new Uint8Array(GUITHREADINFO.size);
  const view = new DataView(info.buffer);
  view.setUint32(0, GUITHREADINFO.size, true);
  if (threadId && user32.symbols.GetGUIThreadInfo(threadId, info)) {
    const focus = Number(view.getBigUint64(GUITHREADINFO.focus, true));
    if (focus !== 0 && rootOf(focus) === windowId) return focus;
  }
  return windowId;
}

/** lParam of WM_KEYDOWN/UP: repeat 1, scan code, extended bit, previous/transition bits for up. */
function keyLParam(vk: number, extended: boolean, up: boolean, alt: boolean): number {
  const scan = user32.symbols.MapVirtualKeyExW(vk, MAPVK.VK_TO_VSC, null) & 0xff;
  let lParam = 1 | (scan << 16) | (extended ? 1 << 24 : 0) | (alt ? 1 << 29 : 0);
  if (up) lParam |= (1 << 30) | (1 << 31);
  return lParam >>> 0;
}

/** A keyboard that posts key messages to one window at a time. */
export class PostedKeyboard implements RawKeyboard {
  #window = 0;
  #modifiers = new Set<ModifierName>();
  #keys = new Set<number>();

  constructor(readonly queue: PostedQueue) {}

  /** Points the keyboard at a top-level window (0 detaches it). */
  target(windowId: number): void {
    this.#window = windowId;
  }

  /** MK_SHIFT/MK_CONTROL for the held modifiers, for the background pointer's messages. */
  modifierBits(): number {
    return (this.#modifiers.has("shift") ? MK.SHIFT : 0) | (this.#modifiers.has("ctrl") ? MK.CONTROL : 0);
  }

  #require(): number {
    if (this.#window === 0 || !isWindow(this.#window)) {
      throw new DriverError(
        "background_unavailable",
        "The background keyboard has no target window; nothing was sent",
        {
          effect: "refused",
          hint: "act on a window target (pid and window_id) so the driver knows where the keys go",
        },
      );
    }
    return focusedControl(this.#window);
  }

  async press(key: string, modifiers: readonly string[]): Promise<void> {
    const resolved = resolveKey(key);
    const control = this.#require();
    const extra = modifiers.map((m) => resolveKey(m)).flatMap((m) =>
      m.kind === "modifier" ? [m.modifier] : []
    );
    if (isConsoleWindow(this.#window)) {
      this.#toConsole([consoleKey(key, [...this.#modifiers, ...extra])]);
      return;
    }
    if (resolved.kind === "text") {
      if (extra.length > 0 || this.#modifiers.size > 0) {
        throw new DriverError(
          "background_unavailable",
          `"${key}" is not on the keyboard layout, so it cannot be pressed with modifiers in the background`,
          {
            effect: "refused",
            hint: 'retry with delivery_mode "foreground"',
          },
        );
      }
      this.#postText(control, resolved.text);
      return;
    }
    const needed = new Set<ModifierName>([...this.#modifiers, ...extra]);
    if (resolved.kind === "vk") {
      if (resolved.shift) needed.add("shift");
      if (resolved.ctrl) needed.add("ctrl");
      if (resolved.alt) needed.add("alt");
      await this.#withState(control, needed, () => {
        const alt = needed.has("alt");
        this.queue.post(
          control,
          alt ? WM.SYSKEYDOWN : WM.KEYDOWN,
          resolved.vk,
          keyLParam(resolved.vk, resolved.extended, false, alt),
        );
        this.queue.post(
          control,
          alt ? WM.SYSKEYUP : WM.KEYUP,
          resolved.vk,
          keyLParam(resolved.vk, resolved.extended, true, alt),
        );
      });
    } else {
      // A lone modifier press: down and up, as a real tap.
      await this.#withState(control, needed, () => {
        this.queue.post(control, WM.KEYDOWN, resolved.vk, keyLParam(resolved.vk, false, false, false));
        this.queue.post(control, WM.KEYUP, resolved.vk, keyLParam(resolved.vk, false, true, false));
      });
    }
  }

  async down(key: string): Promise<void> {
    const resolved = resolveKey(key);
    if (resolved.kind === "modifier") {
      this.#modifiers.add(resolved.modifier);
      return;
    }
    if (resolved.kind === "text") return await this.press(key, []);
    const control = this.#require();
    await this.#withState(control, new Set(this.#modifiers), () => {
      this.queue.post(
        control,
        WM.KEYDOWN,
        resolved.vk,
        keyLParam(resolved.vk, resolved.extended, false, false),
      );
    });
    this.#keys.add(resolved.vk);
  }

  up(key: string): Promise<void> {
    const resolved = resolveKey(key);
    if (resolved.kind === "modifier") {
      this.#modifiers.delete(resolved.modifier);
      return Promise.resolve();
    }
    if (resolved.kind !== "vk" || !this.#keys.has(resolved.vk)) return Promise.resolve();
    this.#keys.delete(resolved.vk);
    if (this.#window !== 0 && isWindow(this.#window)) {
      const control = focusedControl(this.#window);
      this.queue.post(control, WM.KEYUP, resolved.vk, keyLParam(resolved.vk, resolved.extended, true, false));
    }
    return Promise.resolve();
  }

  async typeText(text: string, delayMs = 0): Promise<number> {
    const control = this.#require();
    if (this.#modifiers.size > 0) {
      throw new DriverError(
        "background_unavailable",
        "Cannot type text while modifiers are held in the background",
        {
          effect: "refused",
          hint: "release the modifiers first, or use press_key for shortcuts",
        },
      );
    }
    if (isConsoleWindow(this.#window)) return this.#typeConsole(text, delayMs);
    let delivered = 0;
    for (const character of text) {
      this.#postText(control, character);
      delivered++;
      if (delayMs > 0) {
        await this.queue.flush(control);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
    return delivered;
  }

  /** Keys into the console's input buffer (the records a console reads); refused when it cannot be reached. */
  #toConsole(keys: ConsoleKey[]): number {
    const written = writeConsoleKeys(this.#window, keys);
    if (written === 0 && keys.length > 0) {
      throw new DriverError(
        "background_unavailable",
        `Cannot reach the input of the console in window ${this.#window}; nothing was sent`,
        { effect: "refused", hint: "check that the console's program still runs" },
      );
    }
    return written;
  }

  /** Text into a console, one code point at a time (its UTF-16 units in one write), paced by `delayMs`. */
  async #typeConsole(text: string, delayMs: number): Promise<number> {
    if (delayMs <= 0) return codePointsWritten(this.#toConsole(textKeys(text)), text);
    let delivered = 0;
    for (const character of text) {
      this.#toConsole(textKeys(character));
      delivered++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    return delivered;
  }

  #postText(control: number, text: string): void {
    for (const character of text) {
      // Edit controls break lines on a carriage return, as the Enter key sends it.
      const units = character === "\n" ? "\r" : character;
      for (let i = 0; i < units.length; i++) this.queue.post(control, WM.CHAR, units.charCodeAt(i), 1);
    }
  }

  async releaseAll(): Promise<void> {
    for (const vk of [...this.#keys]) {
      if (this.#window !== 0 && isWindow(this.#window)) {
        this.queue.post(focusedControl(this.#window), WM.KEYUP, vk, keyLParam(vk, false, true, false));
      }
    }
    this.#keys.clear();
    this.#modifiers.clear();
    await Promise.resolve();
  }

  /**
   * Runs `post` with the modifier bits set in the target thread's key state, waits until
   * the app handled what was posted, then restores the state.
   */
  async #withState(control: number, modifiers: ReadonlySet<ModifierName>, post: () => void): Promise<void> {
    if (modifiers.size === 0) {
      post();
      return;
    }
    const ours = kernel32.symbols.GetCurrentThreadId();
    const theirs = windowOwner(control).threadId;
    if (!theirs || !user32.symbols.AttachThreadInput(ours, theirs, 1)) {
      throw new DriverError(
        "background_unavailable",
        "Cannot share key state with the target app to hold modifiers; nothing was sent",
        {
          effect: "refused",
          hint: 'retry with delivery_mode "foreground"',
        },
      );
    }
    const saved = new Uint8Array(256);
    try {
      user32.symbols.GetKeyboardState(saved);
      const state = saved.slice();
      for (const modifier of modifiers) for (const vk of MODIFIER_STATE_KEYS[modifier]) state[vk] |= 0x80;
      user32.symbols.SetKeyboardState(state);
      post();
      await this.queue.flush(control);
    } finally {
      user32.symbols.SetKeyboardState(saved);
      user32.symbols.AttachThreadInput(ours, theirs, 0);
    }
  }
}

/** How many code points of `text` went in when `written` of its console keys (one per UTF-16 unit) did. */
function codePointsWritten(written: number, text: string): number {
  if (written >= textKeys(text).length) return [...text].length;
  let units = 0, whole = 0;
  for (const character of text.replaceAll("\r\n", "\n")) {
    units += character.length;
    if (units > written) break;
    whole++;
  }
  return whole;
}

/** The window that currently has keyboard focus in the foreground thread (for tests and health). */
export function foregroundFocus(): number {
  const info = new Uint8Array(GUITHREADINFO.size);
  new DataView(info.buffer).setUint32(0, GUITHREADINFO.size, true);
  if (!user32.symbols.GetGUIThreadInfo(0, info)) return 0;
  return handleValue(
    Deno.UnsafePointer.create(new DataView(info.buffer).getBigUint64(GUITHREADINFO.focus, true)),
  );
}
