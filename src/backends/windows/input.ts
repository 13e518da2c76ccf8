/**
 * The Windows {@linkcode InputBackend}: background input as posted window messages
 * (never moving the cursor or the foreground), global input through SendInput inside
 * the foreground transaction, and the checks the core's ladder asks before sending.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { user32 } from "../../../ffi/windows/user32.ts";
import type { Point } from "../../ports/geometry.ts";
import type {
  DesktopObservation,
  InputBackend,
  InputChannel,
  OwnedPointer,
  RawKeyboard,
  RawPointer,
  Toolkit,
} from "../../ports/input.ts";
import { className, isAppWindow, topLevelAt, topLevelWindows, windowOwner } from "./win32/hwnd.ts";
import {
  bringToForeground,
  foregroundWindow,
  restoreForeground,
  snapshotForeground,
} from "./input/foreground.ts";
import { InputSettler, SendInputKeyboard, SendInputPointer } from "./input/global_input.ts";
import { requireInputAllowed } from "./input/integrity.ts";
import { PostedQueue } from "./input/post.ts";
import { PostedKeyboard } from "./input/posted_keyboard.ts";
import { PostedPointer } from "./input/posted_pointer.ts";

/** Window classes of Chromium and Electron top-level windows. */
const CHROMIUM_CLASS = /^Chrome_WidgetWin_\d+$/;

/** Input on Windows. */
export class Win32Input implements InputBackend {
  readonly #queue = new PostedQueue();
  readonly #backgroundKeyboard = new PostedKeyboard(this.#queue);
  readonly #backgroundPointer = new PostedPointer(this.#queue, () => this.#backgroundKeyboard.modifierBits());
  readonly #settler = new InputSettler();
  readonly #globalPointer = new SendInputPointer(this.#settler);
  readonly #globalKeyboard = new SendInputKeyboard(this.#settler);
  readonly #extraPointers = new Set<PostedPointer>();

  backgroundAvailable(): Promise<boolean> {
    return Promise.resolve(true);
  }

  pointer(channel: InputChannel): Promise<RawPointer> {
    return Promise.resolve(channel === "background" ? this.#backgroundPointer : this.#globalPointer);
  }

  extraPointer(): Promise<OwnedPointer> {
    const pointer = new PostedPointer(this.#queue, () => this.#backgroundKeyboard.modifierBits());
    this.#extraPointers.add(pointer);
    const close = pointer.close.bind(pointer);
    pointer.close = async () => {
      this.#extraPointers.delete(pointer);
      await close();
    };
    return Promise.resolve(pointer);
  }

  keyboard(channel: InputChannel): Promise<RawKeyboard> {
    return Promise.resolve(channel === "background" ? this.#backgroundKeyboard : this.#globalKeyboard);
  }

  async withBackgroundKeyboard<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    requireInputAllowed(windowId, "background");
    this.#backgroundKeyboard.target(windowId);
    try {
      const result = await body();
      await this.#queue.flush(windowId);
      return result;
    } finally {
      this.#backgroundKeyboard.target(0);
    }
  }

  async withForeground<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    requireInputAllowed(windowId, "foreground");
    const snapshot = snapshotForeground();
    if (!(await bringToForeground(windowId))) {
      throw new DriverError(
        "foreground_unavailable",
        `Windows did not make window ${windowId} the foreground window; nothing was sent`,
        {
          effect: "refused",
          hint:
            "another app holds the foreground lock (or the window is disabled by a modal dialog); act on that first",
        },
      );
    }
    try {
      return await body();
    } finally {
      await this.#globalKeyboard.releaseAll();
      await this.#globalPointer.releaseAll();
      // The target handles everything sent before the previous window comes back.
      await this.#settler.settle();
      await restoreForeground(snapshot);
    }
  }

  windowOnTopAt(windowId: number, point: Point): Promise<boolean> {
    return Promise.resolve(topLevelAt(point.x, point.y) === windowId);
  }

  toolkit(pid: number): Promise<Toolkit> {
    const chromium = topLevelWindows().some((w) =>
      windowOwner(w).pid === pid && CHROMIUM_CLASS.test(className(w))
    );
    return Promise.resolve(chromium ? "chromium" : "unknown");
  }

  observe(): Promise<DesktopObservation> {
    const point = new Int32Array(2);
    user32.symbols.GetCursorPos(point);
    const active = foregroundWindow();
    return Promise.resolve({
      activeWindow: active || null,
      focusWindow: active || null,
      pointer: { x: point[0], y: point[1] },
      stacking: topLevelWindows().filter(isAppWindow).reverse(),
    });
  }

  async releaseAll(): Promise<void> {
    await this.#backgroundPointer.releaseAll();
    for (const pointer of this.#extraPointers) await pointer.releaseAll();
    await this.#backgroundKeyboard.releaseAll();
    await this.#globalKeyboard.releaseAll();
    await this.#globalPointer.releaseAll();
  }

  async appSettled(windowId: number): Promise<void> {
    await this.#queue.flush(windowId);
  }

  /** Releases everything held, for shutdown. */
  async close(): Promise<void> {
    await this.releaseAll();
    this.#extraPointers.clear();
  }
}
