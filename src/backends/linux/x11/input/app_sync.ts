/**
 * Waiting until an app has processed the input events sent to it.
 *
 * Needed before a spare keycode is rebound or cleared: apps translate a keycode with
 * the keyboard map as it is when they *process* the key event (GTK re-reads it then,
 * after a MappingNotify; xkbcommon apps re-read it when they process the
 * MappingNotify), so changing the map too early turns a typed "Ω" into the next
 * character or into nothing.
 *
 * The barrier is EWMH's `_NET_WM_PING`: a client message sent to the app's
 * top-level window after the key events, which the app echoes to the root window when
 * its event loop reaches it, so after it has translated every earlier key. GTK, Qt,
 * Chromium, Firefox and most toolkits answer it. Without a window that advertises
 * it, a fixed delay stands in.
 *
 * @module
 */
import { SIZEOF_XEVENT, X, x11, XEventLayout } from "../../../../../ffi/linux/x11.ts";
import { XConnection } from "../connection.ts";
import { getLongs } from "../properties.ts";

/** How a barrier was passed. */
export type BarrierOutcome = "pong" | "delay" | "timeout";

/** Waits until an app caught up with the input sent to it. */
export interface AppBarrier {
  /**
   * Resolves once the app owning `window` has processed every event the server
   * delivered to it before the call. The caller must have synced its own connection.
   *
   * @param window The focus window (any window of the app), or null when unknown.
   */
  wait(window: bigint | null): Promise<BarrierOutcome>;
  /** Releases the barrier's resources. */
  close(): void;
}

/** Options of {@linkcode PingBarrier}. */
export interface PingBarrierOptions {
  /** Delay used when the app cannot be pinged; default 60 ms. */
  fallbackDelayMs?: number;
  /** Longest wait for the app's answer; default 1000 ms. */
  timeoutMs?: number;
}

const POLL_MS = 1;
const MAX_CACHED_TARGETS = 64;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A {@linkcode AppBarrier} through `_NET_WM_PING`, on a private connection (it
 * listens on the root window for the answer without disturbing the shared one).
 */
export class PingBarrier implements AppBarrier {
  readonly #displayName: string;
  readonly #fallbackDelayMs: number;
  readonly #timeoutMs: number;
  #conn: XConnection | null = null;
  readonly #targets = new Map<bigint, bigint | null>();
  readonly #event = new Uint8Array(SIZEOF_XEVENT);
  #token = 0x4355_0000n; // "CU" in the high half: never one of the window manager's own ping ids

  /** @param displayName The display the apps are on (the shared connection's name). */
  constructor(displayName: string, options: PingBarrierOptions = {}) {
    this.#displayName = displayName;
    this.#fallbackDelayMs = options.fallbackDelayMs ?? 60;
    this.#timeoutMs = options.timeoutMs ?? 1000;
  }

  #connection(): XConnection {
    if (!this.#conn?.alive) {
      this.#conn?.close();
      this.#conn = XConnection.open(this.#displayName);
      this.#targets.clear();
    }
    return this.#conn;
  }

  /** The window of `window`'s app that answers pings: it or an ancestor listing `_NET_WM_PING`. */
  #pingTarget(conn: XConnection, window: bigint): bigint | null {
    if (this.#targets.has(window)) return this.#targets.get(window)!;
    const ping = conn.atom("_NET_WM_PING");
    let target: bigint | null = null;
    for (let current: bigint | null = window; current && current !== conn.root;) {
      if (getLongs(conn, current, "WM_PROTOCOLS")?.includes(ping)) {
        target = current;
        break;
      }
      current = conn.parentOf(current);
    }
    if (this.#targets.size >= MAX_CACHED_TARGETS) this.#targets.clear();
    this.#targets.set(window, target);
    return target;
  }

  async wait(window: bigint | null): Promise<BarrierOutcome> {
    const conn = window !== null && window > 1n ? this.#connection() : null;
    const target = conn && window ? this.#pingTarget(conn, window) : null;
    if (!conn || target === null) {
      await sleep(this.#fallbackDelayMs);
      return "delay";
    }
    const display = conn.unsafeDisplay();
    const protocols = conn.atom("WM_PROTOCOLS"), ping = conn.atom("_NET_WM_PING");
    const token = ++this.#token;
    this.#drain(display);
    // Listen for the answer only while waiting: it comes to the root window.
    x11.symbols.XSelectInput(display, conn.root, X.SubstructureNotifyMask);
    try {
      const event = new Uint8Array(SIZEOF_XEVENT);
      const view = new DataView(event.buffer);
      view.setInt32(XEventLayout.type, X.ClientMessage, true);
      view.setBigUint64(XEventLayout.window, target, true);
      view.setBigUint64(XEventLayout.message_type, protocols, true);
      view.setInt32(XEventLayout.format, 32, true);
      view.setBigUint64(XEventLayout.data, ping, true); // l[0] = _NET_WM_PING
      view.setBigUint64(XEventLayout.data + 8, token, true); // l[1] = timestamp (our token)
      view.setBigUint64(XEventLayout.data + 16, target, true); // l[2] = the window
      const { errors } = conn.trap(() =>
        x11.symbols.XSendEvent(display, target, X.False, X.NoEventMask, event)
      );
      if (errors.length) {
        this.#targets.clear();
        await sleep(this.#fallbackDelayMs);
        return "delay";
      }
      const deadline = performance.now() + this.#timeoutMs;
      while (true) {
        if (this.#sawPong(display, conn.root, protocols, ping, token)) return "pong";
        if (performance.now() > deadline) return "timeout";
        await sleep(POLL_MS);
      }
    } finally {
      if (conn.alive) {
        x11.symbols.XSelectInput(display, conn.root, X.NoEventMask);
        x11.symbols.XFlush(display);
      }
    }
  }

  #drain(display: Deno.PointerObject): void {
    while (x11.symbols.XPending(display) > 0) x11.symbols.XNextEvent(display, this.#event);
  }

  #sawPong(
    display: Deno.PointerObject,
    root: bigint,
    protocols: bigint,
    ping: bigint,
    token: bigint,
  ): boolean {
    const view = new DataView(this.#event.buffer);
    while (x11.symbols.XPending(display) > 0) {
      x11.symbols.XNextEvent(display, this.#event);
      if (
        view.getInt32(XEventLayout.type, true) === X.ClientMessage &&
        view.getBigUint64(XEventLayout.window, true) === root &&
        view.getBigUint64(XEventLayout.message_type, true) === protocols &&
        view.getBigUint64(XEventLayout.data, true) === ping &&
        view.getBigUint64(XEventLayout.data + 8, true) === token
      ) return true;
    }
    return false;
  }

  close(): void {
    this.#conn?.close();
    this.#conn = null;
    this.#targets.clear();
  }
}

/** A barrier that only waits a fixed time (tests, or no X server). */
export class DelayBarrier implements AppBarrier {
  constructor(readonly delayMs = 0) {}

  async wait(): Promise<BarrierOutcome> {
    if (this.delayMs > 0) await sleep(this.delayMs);
    return "delay";
  }

  close(): void {}
}
