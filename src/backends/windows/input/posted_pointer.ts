/**
 * The background pointer on Windows: mouse messages posted to the window under the
 * point (its deepest child), with client coordinates, the held-button bits and
 * double-click messages where the window class asks for them. Nothing moves the real
 * cursor or changes the foreground window.
 *
 * While a button is held, messages go to the window that got the press, as Windows'
 * mouse capture would route them.
 *
 * @module
 */
import { makeLParam } from "../../../../ffi/windows/_win.ts";
import {
  CS_DBLCLKS,
  GCL_STYLE,
  MK,
  user32,
  WHEEL_DELTA,
  WM,
  XBUTTON,
} from "../../../../ffi/windows/user32.ts";
import type { Point } from "../../../ports/geometry.ts";
import type { MouseButton, OwnedPointer } from "../../../ports/input.ts";
import { deepestChildAt, hwnd, topLevelAt } from "../win32/hwnd.ts";
import type { PostedQueue } from "./post.ts";

const BUTTON_BIT: Record<MouseButton, number> = {
  left: MK.LBUTTON,
  right: MK.RBUTTON,
  middle: MK.MBUTTON,
  back: MK.XBUTTON1,
  forward: MK.XBUTTON2,
};

const MESSAGES: Record<MouseButton, { down: number; up: number; double: number }> = {
  left: { down: WM.LBUTTONDOWN, up: WM.LBUTTONUP, double: WM.LBUTTONDBLCLK },
  right: { down: WM.RBUTTONDOWN, up: WM.RBUTTONUP, double: WM.RBUTTONDOWN + 2 },
  middle: { down: WM.MBUTTONDOWN, up: WM.MBUTTONUP, double: WM.MBUTTONDOWN + 2 },
  back: { down: WM.XBUTTONDOWN, up: WM.XBUTTONUP, double: WM.XBUTTONDOWN + 2 },
  forward: { down: WM.XBUTTONDOWN, up: WM.XBUTTONUP, double: WM.XBUTTONDOWN + 2 },
};

/** The modifier bits (MK_SHIFT, MK_CONTROL) of the background keyboard. */
export type ModifierBits = () => number;

/** A pointer that posts mouse messages. */
export class PostedPointer implements OwnedPointer {
  #position: Point = { x: 0, y: 0 };
  #held = new Set<MouseButton>();
  #capture = 0;
  #lastTarget = 0;
  #lastPress: { button: MouseButton; at: number; x: number; y: number; target: number } | null = null;

  constructor(readonly queue: PostedQueue, readonly modifierBits: ModifierBits = () => 0) {}

  /** The window messages at `point` go to (the press's window while a button is held). */
  #targetAt(point: Point): number {
    if (this.#capture) return this.#capture;
    const top = topLevelAt(point.x, point.y);
    return top === 0 ? 0 : deepestChildAt(top, point.x, point.y);
  }

  #wParam(extra = 0): number {
    let bits = this.modifierBits() | extra;
    for (const button of this.#held) bits |= BUTTON_BIT[button];
    return bits;
  }

  #clientLParam(target: number, point: Point): bigint {
    const client = new Int32Array([Math.round(point.x), Math.round(point.y)]);
    user32.symbols.ScreenToClient(hwnd(target), client);
    return makeLParam(client[0], client[1]);
  }

  move(point: Point): Promise<void> {
    this.#position = { x: Math.round(point.x), y: Math.round(point.y) };
    const target = this.#targetAt(this.#position);
    if (target !== 0) {
      this.queue.post(target, WM.MOUSEMOVE, this.#wParam(), this.#clientLParam(target, this.#position));
      this.#lastTarget = target;
    }
    return Promise.resolve();
  }

  button(button: MouseButton, down: boolean): Promise<void> {
    const target = this.#targetAt(this.#position);
    if (target === 0) return Promise.resolve();
    const messages = MESSAGES[button];
    const xbutton = button === "back" ? XBUTTON.X1 : button === "forward" ? XBUTTON.X2 : 0;
    const lParam = this.#clientLParam(target, this.#position);
    if (down) {
      this.#held.add(button);
      const message = this.#isDoubleClick(button, target) ? messages.double : messages.down;
      this.queue.post(target, message, this.#wParam() | (xbutton << 16), lParam);
      this.#lastPress = { button, at: performance.now(), ...this.#position, target };
      this.#capture = target;
    } else {
      this.#held.delete(button);
      this.queue.post(target, messages.up, this.#wParam() | (xbutton << 16), lParam);
      if (this.#held.size === 0) this.#capture = 0;
    }
    this.#lastTarget = target;
    return Promise.resolve();
  }

  /** A second press soon after the first, at the same spot, on a CS_DBLCLKS window. */
  #isDoubleClick(button: MouseButton, target: number): boolean {
    const last = this.#lastPress;
    if (!last || last.button !== button || last.target !== target) return false;
    if (performance.now() - last.at > user32.symbols.GetDoubleClickTime()) return false;
    if (Math.abs(last.x - this.#position.x) > 2 || Math.abs(last.y - this.#position.y) > 2) return false;
    this.#lastPress = null;
    const classStyle = Number(user32.symbols.GetClassLongPtrW(hwnd(target), GCL_STYLE));
    return (classStyle & CS_DBLCLKS) !== 0;
  }

  wheel(dx: number, dy: number): Promise<void> {
    const target = this.#targetAt(this.#position);
    if (target === 0) return Promise.resolve();
    // Wheel messages carry screen coordinates; a positive delta scrolls up (away from the user).
    const lParam = makeLParam(this.#position.x, this.#position.y);
    for (let i = 0; i < Math.abs(dy); i++) {
      const delta = (dy > 0 ? -WHEEL_DELTA : WHEEL_DELTA) & 0xffff;
      this.queue.post(target, WM.MOUSEWHEEL, (delta << 16) | this.#wParam(), lParam);
    }
    for (let i = 0; i < Math.abs(dx); i++) {
      const delta = (dx > 0 ? WHEEL_DELTA : -WHEEL_DELTA) & 0xffff;
      this.queue.post(target, WM.MOUSEHWHEEL, (delta << 16) | this.#wParam(), lParam);
    }
    this.#lastTarget = target;
    return Promise.resolve();
  }

  async releaseAll(): Promise<void> {
    for (const button of [...this.#held]) await this.button(button, false);
    this.#held.clear();
    this.#capture = 0;
  }

  async sync(): Promise<void> {
    if (this.#lastTarget !== 0) await this.queue.flush(this.#lastTarget);
  }

  position(): Promise<Point | null> {
    return Promise.resolve({ ...this.#position });
  }

  async close(): Promise<void> {
    await this.releaseAll();
  }
}
