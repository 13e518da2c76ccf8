/**
 * Background keyboard focus without any focus event a window manager sees.
 *
 * The agent keyboard's focus is set to PointerRoot with the agent pointer resting on a
 * visible point of the target's client area: its keys then go to the window under the
 * agent pointer. The X server sends core focus events for a switch between None and
 * PointerRoot only when no device focuses a window below the root (dix/enterleave.c,
 * CoreFocusPointerRootNoneSwitch), and the user's keyboard always focuses one on a
 * managed desktop: the window manager, the target and every other client see no FocusIn
 * or FocusOut, and `_NET_ACTIVE_WINDOW` never moves, not even for a moment.
 *
 * Pointing the agent keyboard at the target window itself (the route kept for when no
 * window holds the core focus) makes openbox take it as an activation: the target's frame
 * gets a core FocusIn, and when the agent keyboard leaves `_NET_ACTIVE_WINDOW` goes to
 * None; once openbox has digested that, a FocusIn (NotifyNonlinearVirtual) on the prior
 * window's frame, which only the window manager listens on, makes it report the prior
 * window active again. That route shows a transient activation to any watcher.
 *
 * @module
 */
import { SIZEOF_XEVENT, X, x11, XEventLayout } from "../../../../../ffi/linux/x11.ts";
import type { XConnection } from "../connection.ts";
import { getCardinal, sendRootClientMessage } from "../properties.ts";
import type { Point } from "../../../../ports/geometry.ts";
import type { AgentMaster } from "./agent_master.ts";
import { coreFocus } from "./desktop_observer.ts";
import { rootChildAt, topLevelAncestor } from "./stacking.ts";
import { waitUntil as until } from "../../../../lib/wait.ts";

const FOCUS_IN = 9;
const NOTIFY_NORMAL = 0;
const NOTIFY_NONLINEAR_VIRTUAL = 4;
const FOCUS_CHANGE_MASK = 1n << 21n;

function activeWindow(conn: XConnection): bigint {
  return getCardinal(conn, conn.root, "_NET_ACTIVE_WINDOW") ?? 0n;
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

/** XISetFocus's PointerRoot. */
const POINTER_ROOT = 1n;
/** Candidate points per axis when looking for an uncovered part of the target. */
const VISIBLE_GRID = 12;

/**
 * A screen point inside the client area of `windowId` where the pointer reaches the
 * window (no other top-level covers it there), scanning from the centre outwards; null
 * when the window is covered everywhere or not viewable.
 */
export function visibleClientPoint(conn: XConnection, windowId: number): Point | null {
  const window = BigInt(windowId);
  const frame = topLevelAncestor(conn, window);
  const attributes = conn.windowAttributes(window);
  const origin = conn.rootOrigin(window);
  if (frame === null || !attributes || !origin || attributes.mapState !== X.IsViewable) return null;
  const { width, height } = attributes.rect;
  if (width < 1 || height < 1) return null;
  const fractions = [0.5];
  for (let i = 1; i <= VISIBLE_GRID / 2; i++) {
    fractions.push(0.5 - i / (VISIBLE_GRID + 1), 0.5 + i / (VISIBLE_GRID + 1));
  }
  const screen = conn.screenSize();
  for (const fy of fractions) {
    for (const fx of fractions) {
      const point = { x: Math.floor(origin.x + width * fx), y: Math.floor(origin.y + height * fy) };
      if (point.x < 0 || point.y < 0 || point.x >= screen.width || point.y >= screen.height) continue;
      if (rootChildAt(conn, point) === frame) return point;
    }
  }
  return null;
}

/** How the agent keyboard reaches a background window: a pointer to move and where to. */
export interface BackgroundKeyboardRoute {
  /** Moves the agent pointer to a screen point and waits until the server has it there. */
  moveAgentPointer(point: Point): Promise<void>;
  /** Rests the agent pointer again after the input. */
  parkAgentPointer(): Promise<void>;
}

/**
 * Runs `body` with the agent keyboard delivering to `windowId`, then restores.
 *
 * With `route` given, a window holding the core focus, and a visible point of the target,
 * nothing sees a focus change (see the module header); otherwise the agent keyboard is
 * focused on the target and the prior active window is reported again afterwards.
 */
export async function withBackgroundKeyboard<T>(
  conn: XConnection,
  agent: AgentMaster,
  windowId: number,
  body: () => Promise<T>,
  route?: BackgroundKeyboardRoute,
): Promise<T> {
  const prior = activeWindow(conn);
  // Already the active window: the agent keyboard stays on it afterwards, so the app
  // sees no focus change at all (moving it away would make GTK drop its focus state).
  const targetIsActive = prior === BigInt(windowId);
  const point = !targetIsActive && route && coreFocus(conn).window > POINTER_ROOT
    ? visibleClientPoint(conn, windowId)
    : null;
  if (point && route) return await withPointerRootKeyboard(conn, agent, point, route, body);
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

async function withPointerRootKeyboard<T>(
  conn: XConnection,
  agent: AgentMaster,
  point: Point,
  route: BackgroundKeyboardRoute,
  body: () => Promise<T>,
): Promise<T> {
  await route.moveAgentPointer(point);
  agent.setFocus(POINTER_ROOT);
  try {
    return await body();
  } finally {
    if (conn.alive) {
      x11.symbols.XSync(conn.unsafeDisplay(), X.False);
      agent.setFocus(0n);
      await route.parkAgentPointer();
    }
  }
}
