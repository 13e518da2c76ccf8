/**
 * Key event channels and the sink that sends key events: XTEST on the core keyboard
 * (`XTestFakeKeyEvent`) or on an XInput device (`XTestFakeDeviceKeyEvent`).
 *
 * @module
 */
import { X, x11, XKB, XkbStateRecLayout } from "../../../../../ffi/linux/x11.ts";
import { xi } from "../../../../../ffi/linux/xi.ts";
import { XDeviceLayout, xtst } from "../../../../../ffi/linux/xtst.ts";
import type { XConnection } from "../connection.ts";

/** Where key events go. */
export type KeyboardChannel =
  | { readonly kind: "core" }
  | {
    readonly kind: "device";
    /** `XDevice*` of an XTEST keyboard slave (from `XOpenDevice`). */
    readonly device: Deno.PointerObject;
    /** XInput2 id of its master keyboard, to find the window it types into. */
    readonly keyboardId?: number;
  };

/** The core keyboard channel. */
export const CORE_KEYBOARD: KeyboardChannel = Object.freeze({ kind: "core" });

/**
 * A device channel.
 *
 * @param device `XDevice*` of the XTEST keyboard slave; the caller keeps it open.
 * @param keyboardId The master keyboard's id (for `XIGetFocus`).
 */
export function deviceKeyboard(
  device: Deno.PointerObject, /* XDevice* */
  keyboardId?: number,
): KeyboardChannel {
  return Object.freeze({ kind: "device", device, keyboardId });
}

/** Keyboard state that changes which level a key types. */
export interface KeyboardState {
  /** Effective XKB group (layout index). */
  group: number;
  /** Caps Lock is locked. */
  capsLock: boolean;
}

/** Sends key events: XTEST on a display, or a recorder in unit tests. */
export interface KeyEventSink {
  key(channel: KeyboardChannel, keycode: number, down: boolean): void;
  /** Sends what is buffered. */
  flush(): void;
  /** Waits until the server has processed everything sent. */
  sync(): void;
  state(channel: KeyboardChannel): KeyboardState;
  /** The window the channel types into, or null when unknown (none, PointerRoot). */
  focus(channel: KeyboardChannel): bigint | null;
}

/** {@linkcode KeyEventSink} over XTEST. */
export class X11KeySink implements KeyEventSink {
  readonly #conn: XConnection;
  readonly #state = new Uint8Array(XkbStateRecLayout.size + 6);
  static readonly #noAxes = new Int32Array(0);

  constructor(conn: XConnection) {
    this.#conn = conn;
  }

  key(channel: KeyboardChannel, keycode: number, down: boolean): void {
    const display = this.#conn.unsafeDisplay();
    const isPress = down ? X.True : X.False;
    if (channel.kind === "core") xtst.symbols.XTestFakeKeyEvent(display, keycode, isPress, 0n);
    else {xtst.symbols.XTestFakeDeviceKeyEvent(
        display,
        channel.device,
        keycode,
        isPress,
        X11KeySink.#noAxes,
        0,
        0n,
      );}
  }

  flush(): void {
    x11.symbols.XFlush(this.#conn.unsafeDisplay());
  }

  sync(): void {
    x11.symbols.XSync(this.#conn.unsafeDisplay(), X.False);
    // A lost server shows up on the round trip: report it as display_unavailable.
    this.#conn.unsafeDisplay();
  }

  state(channel: KeyboardChannel): KeyboardState {
    const display = this.#conn.unsafeDisplay();
    // UNSAFE: XDevice starts with its XID (device_id), read from the live XDevice* the caller owns.
    const deviceSpec = channel.kind === "core"
      ? XKB.UseCoreKbd
      : Number(new Deno.UnsafePointerView(channel.device).getBigUint64(XDeviceLayout.device_id));
    this.#state.fill(0);
    if (x11.symbols.XkbGetState(display, deviceSpec, this.#state) !== X.Success) {
      return { group: 0, capsLock: false };
    }
    const lockMask = 0x02;
    return {
      group: this.#state[XkbStateRecLayout.group] & 3,
      capsLock: (this.#state[XkbStateRecLayout.locked_mods] & lockMask) !== 0,
    };
  }

  focus(channel: KeyboardChannel): bigint | null {
    const display = this.#conn.unsafeDisplay();
    const window = new BigUint64Array(1);
    if (channel.kind === "core") {
      const revertTo = new Int32Array(1);
      x11.symbols.XGetInputFocus(display, window, revertTo);
    } else {
      if (channel.keyboardId === undefined || !xi.available()) return null;
      const { errors } = this.#conn.trap(() => xi.symbols.XIGetFocus(display, channel.keyboardId!, window));
      if (errors.length) return null;
    }
    // None (0) and PointerRoot (1) name no window.
    return window[0] > 1n ? window[0] : null;
  }
}
