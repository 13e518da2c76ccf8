/**
 * Pointer input through XTEST: the core pointer (foreground and desktop scope;
 * the user's pointer moves) or an agent master's XTEST slave (background; the
 * core pointer stays where the user left it).
 *
 * @module
 */
import { x11 } from "../../../../../ffi/linux/x11.ts";
import { xi } from "../../../../../ffi/linux/xi.ts";
import { xtst } from "../../../../../ffi/linux/xtst.ts";
import type { Point } from "../../../../ports/geometry.ts";
import type { MouseButton, RawPointer } from "../../../../ports/input.ts";
import type { XConnection } from "../connection.ts";
import type { AgentMaster } from "./agent_master.ts";
import { corePointer } from "./desktop_observer.ts";
import { bareRootPoint } from "./stacking.ts";
import { pause } from "../../../../kernel/call_abort.ts";
import type { SpriteGuard } from "./sprite_guard.ts";

/** X button numbers. */
const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3, back: 8, forward: 9 };

/** A pointer driven through XTEST, remembering which buttons it holds. */
export class X11Pointer implements RawPointer {
  readonly #held = new Set<number>();
  /** Set by every button event; the input back end parks the pointer after a gesture that pressed. */
  pressedSinceParked = false;
  #position: Point | null = null;

  /** `agent` null drives the core pointer; `guard` keeps an agent master's sprite safe (sprite_guard.ts). */
  constructor(
    readonly conn: XConnection,
    readonly agent: AgentMaster | null,
    readonly guard: SpriteGuard | null = null,
  ) {}

  /** Absolute motion to a screen point. */
  move(point: Point): Promise<void> {
    const display = this.conn.unsafeDisplay();
    const x = Math.round(point.x), y = Math.round(point.y);
    if (this.agent) {
      this.guard?.beforeMove(this.agent, { x, y });
      xtst.symbols.XTestFakeDeviceMotionEvent(
        display,
        this.agent.pointerDevice,
        0,
        0,
        new Int32Array([x, y]),
        2,
        0n,
      );
    } else {
      xtst.symbols.XTestFakeMotionEvent(display, -1, x, y, 0n);
    }
    x11.symbols.XFlush(display);
    this.#position = { x, y };
    return Promise.resolve();
  }

  /** Presses or releases a button at the current position. */
  button(button: MouseButton, down: boolean): Promise<void> {
    this.#emitButton(BUTTONS[button], down);
    return Promise.resolve();
  }

  /**
   * Wheel detents: buttons 4/5 (vertical) and 6/7 (horizontal); positive dy scrolls down.
   * Stops between detents when `signal` aborts; resolves with the detents sent.
   */
  async wheel(dx: number, dy: number, signal?: AbortSignal): Promise<number> {
    const steps: number[] = [];
    for (let i = 0; i < Math.abs(Math.round(dy)); i++) steps.push(dy > 0 ? 5 : 4);
    for (let i = 0; i < Math.abs(Math.round(dx)); i++) steps.push(dx > 0 ? 7 : 6);
    let sent = 0;
    for (const [i, number] of steps.entries()) {
      if (signal?.aborted) break;
      this.#emitButton(number, true);
      this.#emitButton(number, false);
      sent++;
      // Toolkits coalesce wheel events that arrive in one burst.
      if (i < steps.length - 1) await pause(8, signal);
    }
    return sent;
  }

  /**
   * Moves an agent pointer to where it rests between calls (the guard's rest window, else a
   * point over bare root) and waits for the server. The core pointer is never parked.
   */
  async park(): Promise<void> {
    if (!this.agent || !this.conn.alive) return;
    this.pressedSinceParked = false;
    const spot = this.guard ? this.guard.restPoint() : bareRootPoint(this.conn);
    if (!spot) return;
    await this.move(spot);
    await this.sync();
    this.guard?.rested(this.agent);
  }

  /** Releases every button this pointer still holds. */
  releaseAll(): Promise<void> {
    for (const number of [...this.#held]) this.#emitButton(number, false);
    return this.sync();
  }

  /** Waits until the server has processed everything sent. */
  sync(): Promise<void> {
    if (this.conn.alive) x11.symbols.XSync(this.conn.unsafeDisplay(), 0);
    return Promise.resolve();
  }

  /** The server's position of this pointer (the agent master's own sprite, or the core pointer). */
  position(): Promise<Point | null> {
    if (!this.conn.alive) return Promise.resolve(null);
    if (!this.agent) return Promise.resolve(corePointer(this.conn));
    const root = new BigUint64Array(1), child = new BigUint64Array(1);
    const rx = new Float64Array(1),
      ry = new Float64Array(1),
      wx = new Float64Array(1),
      wy = new Float64Array(1);
    // XIButtonState {int mask_len; unsigned char *mask} (mask is Xlib-allocated); modifier and group: 4 ints each.
    const buttons = new BigUint64Array(2), mods = new Int32Array(4), group = new Int32Array(4);
    const display = this.conn.unsafeDisplay();
    const { value: same, errors } = this.conn.trap(() =>
      xi.symbols.XIQueryPointer(
        display,
        this.agent!.pointerId,
        this.conn.root,
        root,
        child,
        rx,
        ry,
        wx,
        wy,
        buttons,
        mods,
        group,
      )
    );
    const mask = Deno.UnsafePointer.create(buttons[1]);
    if (mask) x11.symbols.XFree(mask);
    if (errors.length || !same) return Promise.resolve(null);
    return Promise.resolve({ x: Math.round(rx[0]), y: Math.round(ry[0]) });
  }

  #emitButton(number: number, down: boolean): void {
    const display = this.conn.unsafeDisplay();
    this.pressedSinceParked = true;
    if (this.agent) {
      const axes = this.#position ? new Int32Array([this.#position.x, this.#position.y]) : new Int32Array(0);
      xtst.symbols.XTestFakeDeviceButtonEvent(
        display,
        this.agent.pointerDevice,
        number,
        down ? 1 : 0,
        axes,
        axes.length,
        0n,
      );
    } else {
      xtst.symbols.XTestFakeButtonEvent(display, number, down ? 1 : 0, 0n);
    }
    x11.symbols.XFlush(display);
    if (down) this.#held.add(number);
    else this.#held.delete(number);
  }
}
