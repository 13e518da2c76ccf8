/**
 * The X11 input back end: XTEST for the user's pointer and keyboard, an agent
 * XInput2 master for background input, the foreground transaction, and the
 * checks that decide which route can land.
 *
 * @module
 */
import type { Point } from "../../ports/geometry.ts";
import type {
  DesktopObservation,
  HeldInputReport,
  InputBackend,
  InputChannel,
  OwnedPointer,
  RawKeyboard,
  RawPointer,
  Toolkit,
} from "../../ports/input.ts";
import { x11 } from "../../../ffi/linux/x11.ts";
import type { XConnection } from "./x11/connection.ts";
import {
  AgentMaster,
  isStaleMasterName,
  removeStaleMasters,
  xinput2Available,
} from "./x11/input/agent_master.ts";
import { announceDriver } from "./x11/input/driver_presence.ts";
import { releaseHeldInput } from "./x11/input/held_input.ts";
import { withBackgroundKeyboard } from "./x11/input/background_keyboard.ts";
import { observeDesktop } from "./x11/input/desktop_observer.ts";
import { ExtraPointerPool } from "./x11/input/extra_pointers.ts";
import { withForeground } from "./x11/input/foreground.ts";
import { type KeyboardChannel, X11Keyboard } from "./x11/input/keyboard.ts";
import { createKeyboard } from "./x11/input/keyboard_channel.ts";
import { PingBarrier } from "./x11/input/app_sync.ts";
import { X11Pointer } from "./x11/input/pointer.ts";
import { SpriteGuard } from "./x11/input/sprite_guard.ts";
import { windowOnTopAt } from "./x11/input/stacking.ts";
import { detectToolkit } from "./x11/input/toolkit.ts";

/** Per-connection input devices, rebuilt when the X connection is replaced. */
interface Devices {
  conn: XConnection;
  agent: AgentMaster | null;
  pointers: Partial<Record<InputChannel, X11Pointer>>;
  keyboards: Partial<Record<InputChannel, ReturnType<typeof createKeyboard>>>;
  /** One keyboard (keymap and spare keycodes) for both channels, opened on first use. */
  keyboard: X11Keyboard | null;
  /** Pointers of their own for held buttons and parallel drags, created on first use. */
  extras?: ExtraPointerPool;
  /** Keeps agent masters' sprites from holding other clients' cursors; created with the first master. */
  guard?: SpriteGuard | null;
}

/** Input on one X display. */
export class X11Input implements InputBackend {
  #devices: Devices | null = null;
  #background: boolean | null = null;
  readonly #toolkits = new Map<number, Promise<Toolkit>>();
  #barrier: PingBarrier | null = null;
  #heldReset: HeldInputReport | null = null;

  constructor(readonly connection: () => XConnection) {}

  #current(): Devices {
    const conn = this.connection();
    if (!this.#devices || this.#devices.conn !== conn) {
      this.#devices?.extras?.close();
      this.#devices?.agent?.close();
      this.#devices?.guard?.close();
      this.#devices = { conn, agent: null, pointers: {}, keyboards: {}, keyboard: null };
      this.#background = null;
      this.#attach(conn);
    }
    return this.#devices;
  }

  /**
   * Attaching to a display: registers this driver there and releases what an earlier driver
   * left held (held_input.ts). Never fails the call that attached.
   */
  #attach(conn: XConnection): void {
    try {
      const { others } = announceDriver(conn);
      this.#heldReset = releaseHeldInput(
        conn,
        isStaleMasterName,
        others > 0
          ? `${others} other driver${others === 1 ? " is" : "s are"} attached to this display`
          : null,
      );
    } catch (error) {
      this.#heldReset = {
        at: new Date().toISOString(),
        released: [],
        stale_masters: [],
        core_skipped: `the reset failed: ${(error as Error).message}`,
      };
    }
  }

  /** Attaches to the display now (servers do at start) rather than at the first input call. */
  attach(): HeldInputReport | null {
    this.#current();
    return this.#heldReset;
  }

  heldInputReset(): Promise<HeldInputReport | null> {
    return Promise.resolve(this.#heldReset);
  }

  #guard(): SpriteGuard | null {
    const devices = this.#current();
    if (devices.guard === undefined) devices.guard = SpriteGuard.create(devices.conn);
    return devices.guard;
  }

  #agent(): AgentMaster {
    const devices = this.#current();
    if (!devices.agent?.alive) {
      const guard = this.#guard();
      removeStaleMasters(devices.conn, guard);
      devices.agent = AgentMaster.create(devices.conn);
      guard?.enroll(devices.agent);
      devices.pointers.background = undefined;
      devices.keyboards.background = undefined;
    }
    return devices.agent;
  }

  backgroundAvailable(): Promise<boolean> {
    const devices = this.#current();
    this.#background ??= xinput2Available(devices.conn);
    return Promise.resolve(this.#background);
  }

  pointer(channel: InputChannel): Promise<RawPointer> {
    const devices = this.#current();
    const agent = channel === "background" ? this.#agent() : null;
    devices.pointers[channel] ??= new X11Pointer(devices.conn, agent, agent ? this.#guard() : null);
    return Promise.resolve(devices.pointers[channel]!);
  }

  extraPointer(): Promise<OwnedPointer> {
    const devices = this.#current();
    devices.extras ??= new ExtraPointerPool(devices.conn, this.#guard());
    return Promise.resolve(devices.extras.acquire());
  }

  keyboard(channel: InputChannel): Promise<RawKeyboard> {
    const devices = this.#current();
    const agent = channel === "background" ? this.#agent() : null;
    devices.keyboard ??= X11Keyboard.open(devices.conn);
    devices.keyboards[channel] ??= createKeyboard(devices.keyboard, agent);
    return Promise.resolve(devices.keyboards[channel]!);
  }

  async withBackgroundKeyboard<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    const devices = this.#current();
    const agent = this.#agent();
    const pointer = (await this.pointer("background")) as X11Pointer;
    return await withBackgroundKeyboard(devices.conn, agent, windowId, body, {
      moveAgentPointer: async (point) => {
        await pointer.move(point);
        await pointer.sync();
      },
      // Rested like after a press, so the agent master never stays over the app (see #park).
      parkAgentPointer: () => pointer.park(),
    });
  }

  withForeground<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    return withForeground(this.#current().conn, windowId, body);
  }

  windowOnTopAt(windowId: number, point: Point): Promise<boolean> {
    return Promise.resolve(windowOnTopAt(this.#current().conn, windowId, point));
  }

  toolkit(pid: number): Promise<Toolkit> {
    let known = this.#toolkits.get(pid);
    if (!known) {
      known = detectToolkit(pid);
      this.#toolkits.set(pid, known);
    }
    return known;
  }

  observe(): Promise<DesktopObservation> {
    return Promise.resolve(observeDesktop(this.#current().conn));
  }

  async appSettled(windowId: number): Promise<void> {
    const devices = this.#current();
    x11.symbols.XSync(devices.conn.unsafeDisplay(), 0);
    this.#barrier ??= new PingBarrier(devices.conn.name);
    await this.#barrier.wait(BigInt(windowId));
  }

  async releaseAll(): Promise<void> {
    const devices = this.#devices;
    if (!devices || !devices.conn.alive) return;
    for (const pointer of Object.values(devices.pointers)) await pointer?.releaseAll();
    for (const keyboard of Object.values(devices.keyboards)) await keyboard?.releaseAll?.();
    await this.#park();
    // A hover stays where it was put, under an empty device cursor; cursors show again.
    devices.guard?.settle();
  }

  /**
   * Rests the private pointer after each action that pressed (sprite_guard.ts; over bare
   * root without one). GTK aborts on the X error it gets when a device it is tracking
   * disappears, so the agent master must never be removed (at exit, or as a stale master
   * later) while it hovers over a client window.
   */
  async #park(): Promise<void> {
    const pointer = this.#devices?.pointers.background;
    // A hover (move_cursor) stays where it was put; the pointer is parked at exit anyway.
    if (!pointer?.pressedSinceParked || !this.#devices?.conn.alive) return;
    await pointer.park();
  }

  /** Removes the agent master and every extra one. */
  async close(): Promise<void> {
    this.#barrier?.close();
    this.#barrier = null;
    const devices = this.#devices;
    this.#devices = null;
    if (!devices) return;
    devices.extras?.close();
    if (devices.keyboard && devices.conn.alive) {
      // Releases held keys and unbinds spare keycodes on both channels before the devices go.
      const channels: KeyboardChannel[] = Object.values(devices.keyboards).flatMap((k) =>
        k ? [k.channel] : []
      );
      await devices.keyboard.close(channels).catch(() => {});
    }
    // The sprite must show nothing when its master goes (sprite_guard.ts): rest it first.
    if (devices.agent && devices.guard) devices.guard.rest(devices.agent);
    else await devices.pointers.background?.park();
    if (devices.agent) devices.guard?.forget(devices.agent);
    devices.agent?.close();
    devices.guard?.close();
  }
}
