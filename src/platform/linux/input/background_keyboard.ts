/**
 * Background keyboard focus: the agent keyboard is pointed at the target window
 * for the duration of the input, and the window manager's idea of the active
 * window is given back afterwards without touching the core focus.
 *
 * Openbox takes the agent keyboard's focus change as an activation (the target
 * gets a core FocusIn) and, when the agent keyboard leaves, sets
 * `_NET_ACTIVE_WINDOW` to None. Pointing the agent keyboard back at the prior
 * window does not help, nor does an EWMH activation request, and bouncing the
 * core focus races openbox's focus fallback (it can hand the core focus to the
 * target). What works: once openbox has digested the agent keyboard leaving,
 * tell it what it missed: a FocusIn (NotifyNonlinearVirtual) on the prior
 * window's frame, which only the window manager listens on.
 *
 * @module
 */
import { SIZEOF_XEVENT, X, x11, XEventLayout } from "../../../../ffi/linux/x11.ts";
import type { XConnection } from "../x11/connection.ts";
import { getCardinal, sendRootClientMessage } from "../x11/properties.ts";
import type { AgentMaster } from "./agent_master.ts";

const FOCUS_IN = 9;
const NOTIFY_NORMAL = 0;
const NOTIFY_NONLINEAR_VIRTUAL = 4;
const FOCUS_CHANGE_MASK = 1n << 21n;

function activeWindow(conn: XConnection): bigint {
  return getCardinal(conn, conn.root, "_NET_ACTIVE_WINDOW") ?? 0n;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/**
 * Waits until the window manager has processed everything sent before the call:
 * it answers `_NET_REQUEST_FRAME_EXTENTS` for a throwaway window in order with
 * everything else it handles.
 */
export async function wmIdle(conn: XConnection, timeoutMs = 2_000): Promise<boolean> {
  const display = conn.unsafeDisplay();
  const probe = x11.symbols.XCreateSimpleWindow(display, conn.root, -10, -10, 1, 1, 0, 0n, 0n);
  try {
    x11.symbols.XSelectInput(display, probe, X.PropertyChangeMask);
    sendRootClientMessage(conn, probe, "_NET_REQUEST_FRAME_EXTENTS", []);
    const event = new Uint8Array(SIZEOF_XEVENT);
    const extents = conn.atom("_NET_FRAME_EXTENTS");
    return await until(() => {
      while (x11.symbols.XCheckTypedWindowEvent(display, probe, X.PropertyNotify, event)) {
        if (new DataView(event.buffer).getBigUint64(XEventLayout.property_atom, true) === extents) {
          return true;
        }
      }
      x11.symbols.XFlush(display);
      return false;
    }, timeoutMs);
  } finally {
    x11.symbols.XDestroyWindow(display, probe);
    x11.symbols.XFlush(display);
  }
}

/** Takes the agent keyboard away and makes the window manager report `prior` active again. */
export async function restoreActiveWindow(
  conn: XConnection,
  agent: AgentMaster,
  prior: bigint,
): Promise<boolean> {
  const display = conn.unsafeDisplay();
  agent.setFocus(0n);
  if (prior === 0n) return true;
  await wmIdle(conn);
  if (activeWindow(conn) === prior) return true;
  const frame = conn.parentOf(prior);
  if (frame === null || frame === conn.root || frame === 0n) return false;
  const event = new Uint8Array(SIZEOF_XEVENT);
  const view = new DataView(event.buffer);
  view.setInt32(XEventLayout.type, FOCUS_IN, true);
  view.setInt32(16, 1, true); // send_event
  view.setBigUint64(XEventLayout.window, frame, true);
  view.setInt32(40, NOTIFY_NORMAL, true); // mode
  view.setInt32(44, NOTIFY_NONLINEAR_VIRTUAL, true); // detail
  x11.symbols.XSendEvent(display, frame, X.False, FOCUS_CHANGE_MASK, event);
  x11.symbols.XSync(display, X.False);
  return await until(() => activeWindow(conn) === prior, 1_000);
}

/** Runs `body` with the agent keyboard focused on `windowId`, then restores. */
export async function withBackgroundKeyboard<T>(
  conn: XConnection,
  agent: AgentMaster,
  windowId: number,
  body: () => Promise<T>,
): Promise<T> {
  const prior = activeWindow(conn);
  // Already the active window: the agent keyboard stays on it afterwards, so the app
  // sees no focus change at all (moving it away would make GTK drop its focus state).
  const targetIsActive = prior === BigInt(windowId);
  agent.setFocus(BigInt(windowId));
  try {
    return await body();
  } finally {
    if (conn.alive && !targetIsActive) {
      x11.symbols.XSync(conn.unsafeDisplay(), X.False);
      await restoreActiveWindow(conn, agent, prior);
    }
  }
}
