/**
 * Top-level windows on X11 through EWMH: listing in stacking order (untitled windows and
 * transient dialogs with their owner included), activation, closing
 * with a real server timestamp, and frame requests.
 *
 * @module
 */
import { SIZEOF_XEVENT, X, x11, XEventLayout } from "../../../ffi/linux/x11.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { WindowBackend, WindowInfo, WindowLookup } from "../../ports/windows.ts";
import type { XConnection } from "./x11/connection.ts";
import { getCardinal, getLongs, sendRootClientMessage, windowClass, windowTitle } from "./x11/properties.ts";

/** EWMH _NET_MOVERESIZE_WINDOW flags: StaticGravity, x/y/w/h present, source "normal application". */
const MOVERESIZE_FLAGS = 10n | (1n << 8n) | (1n << 9n) | (1n << 10n) | (1n << 11n) | (1n << 12n);

/** Windows of the X11 desktop. */
export class X11Windows implements WindowBackend {
  constructor(readonly connection: () => XConnection) {}

  /** Client windows bottom-first, from `_NET_CLIENT_LIST_STACKING` when the WM provides it. */
  list(): Promise<WindowInfo[]> {
    const conn = this.connection();
    const stacking = getLongs(conn, conn.root, "_NET_CLIENT_LIST_STACKING");
    const mapping = stacking ?? getLongs(conn, conn.root, "_NET_CLIENT_LIST");
    let ids: bigint[];
    let stacked = stacking !== null;
    if (mapping) {
      ids = mapping;
    } else {
      // No EWMH window manager: viewable children of the root, which are in stacking order.
      ids = (conn.childrenOf(conn.root) ?? []).filter((w) =>
        conn.windowAttributes(w)?.mapState === X.IsViewable
      );
      stacked = true;
    }
    const windows: WindowInfo[] = [];
    ids.forEach((id, position) => {
      const info = describe(conn, id, stacked ? position : null);
      // The window manager's client list holds only managed top-level windows, untitled
      // dialogs among them; the root's raw children also hold unnamed helper windows.
      if (info && (mapping || info.title.trim() !== "")) windows.push(info);
    });
    return Promise.resolve(windows);
  }

  /** One window, or null when it no longer exists (without `zIndex`: one round trip fewer). */
  get(windowId: number, options: WindowLookup = {}): Promise<WindowInfo | null> {
    const conn = this.connection();
    if (options.zIndex === false) return Promise.resolve(describe(conn, BigInt(windowId), null));
    const stacking = getLongs(conn, conn.root, "_NET_CLIENT_LIST_STACKING");
    const position = stacking?.indexOf(BigInt(windowId)) ?? -1;
    return Promise.resolve(describe(conn, BigInt(windowId), position >= 0 ? position : null));
  }

  /**
   * A window's bounds (client area in root coordinates) alone: two round trips where
   * {@linkcode get} makes seven. Null when the window no longer exists.
   */
  bounds(windowId: number): Promise<Rect | null> {
    const conn = this.connection();
    const id = BigInt(windowId);
    const attributes = conn.windowAttributes(id);
    const origin = attributes && conn.rootOrigin(id);
    return Promise.resolve(
      origin
        ? { x: origin.x, y: origin.y, width: attributes.rect.width, height: attributes.rect.height }
        : null,
    );
  }

  /** `_NET_ACTIVE_WINDOW`, or null. */
  active(): Promise<number | null> {
    const conn = this.connection();
    const active = getCardinal(conn, conn.root, "_NET_ACTIVE_WINDOW");
    return Promise.resolve(active ? Number(active) : null);
  }

  /**
   * Activates a window the way a pager does (EWMH source 2, real server time) and
   * gives it input focus, then waits up to 400 ms for the WM to confirm.
   */
  async activate(windowId: number): Promise<{ priorActive: number | null }> {
    const conn = this.connection();
    const priorActive = await this.active();
    const window = BigInt(windowId);
    const time = serverTime(conn);
    sendRootClientMessage(conn, window, "_NET_ACTIVE_WINDOW", [2n, time, BigInt(priorActive ?? 0)]);
    conn.trap(() => x11.symbols.XRaiseWindow(conn.unsafeDisplay(), window));
    conn.trap(() => x11.symbols.XSetInputFocus(conn.unsafeDisplay(), window, X.RevertToParent, time));
    const deadline = Date.now() + 400;
    while (Date.now() < deadline) {
      if ((await this.active()) === windowId) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { priorActive };
  }

  /**
   * Asks a window to close as its close button does: ICCCM `WM_DELETE_WINDOW` to the
   * client when it takes it (the app decides: it may ask to save first), else EWMH
   * `_NET_CLOSE_WINDOW` to the window manager. False when the window no longer exists.
   */
  close(windowId: number): Promise<boolean> {
    const conn = this.connection();
    const window = BigInt(windowId);
    if (!conn.windowAttributes(window)) return Promise.resolve(false);
    const time = serverTime(conn);
    const deleteWindow = conn.atom("WM_DELETE_WINDOW");
    if (getLongs(conn, window, "WM_PROTOCOLS")?.includes(deleteWindow)) {
      sendRootClientMessage(conn, window, "WM_PROTOCOLS", [deleteWindow, time], window);
    } else {
      sendRootClientMessage(conn, window, "_NET_CLOSE_WINDOW", [time, 2n]);
    }
    conn.flush();
    return Promise.resolve(true);
  }

  /** Asks the WM to move and resize the client area (`_NET_MOVERESIZE_WINDOW`, static gravity). */
  setFrame(windowId: number, frame: Rect): Promise<void> {
    const conn = this.connection();
    sendRootClientMessage(conn, BigInt(windowId), "_NET_MOVERESIZE_WINDOW", [
      MOVERESIZE_FLAGS,
      BigInt(Math.round(frame.x)),
      BigInt(Math.round(frame.y)),
      BigInt(Math.round(frame.width)),
      BigInt(Math.round(frame.height)),
    ]);
    conn.flush();
    return Promise.resolve();
  }
}

/** Reads one window's record, or null when it does not exist. */
export function describe(conn: XConnection, id: bigint, zIndex: number | null): WindowInfo | null {
  const attributes = conn.windowAttributes(id);
  if (!attributes) return null;
  const origin = conn.rootOrigin(id);
  if (!origin) return null;
  const [instance, klass] = windowClass(conn, id);
  const pid = getCardinal(conn, id, "_NET_WM_PID");
  const owner = getLongs(conn, id, "WM_TRANSIENT_FOR")?.[0];
  return {
    windowId: Number(id),
    pid: pid ? Number(pid) : null,
    appName: klass || instance,
    title: windowTitle(conn, id),
    transientFor: owner && owner !== conn.root ? Number(owner) : null,
    bounds: { x: origin.x, y: origin.y, width: attributes.rect.width, height: attributes.rect.height },
    isOnScreen: attributes.mapState === X.IsViewable,
    zIndex,
  };
}

/**
 * A real server timestamp: focus-stealing prevention ignores requests stamped
 * CurrentTime. Writes a property on a throwaway window and reads the
 * PropertyNotify time.
 */
export function serverTime(conn: XConnection): bigint {
  const display = conn.unsafeDisplay();
  const probe = x11.symbols.XCreateSimpleWindow(display, conn.root, -10, -10, 1, 1, 0, 0n, 0n);
  try {
    x11.symbols.XSelectInput(display, probe, X.PropertyChangeMask);
    const atom = conn.atom("CUA_TIME_PROBE");
    conn.trap(() =>
      x11.symbols.XChangeProperty(
        display,
        probe,
        atom,
        X.XA_STRING,
        8,
        X.PropModeReplace,
        new Uint8Array(1),
        0,
      )
    );
    const event = new Uint8Array(SIZEOF_XEVENT);
    const deadline = Date.now() + 200;
    while (Date.now() < deadline) {
      if (x11.symbols.XCheckTypedWindowEvent(display, probe, X.PropertyNotify, event)) {
        return new DataView(event.buffer).getBigUint64(XEventLayout.property_time, true);
      }
      x11.symbols.XSync(display, X.False);
    }
    return X.CurrentTime;
  } finally {
    conn.trap(() => x11.symbols.XDestroyWindow(display, probe));
  }
}
