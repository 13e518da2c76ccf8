/**
 * Background keyboard focus: the agent keyboard is pointed at the target window
 * for the duration of the input. Openbox (and other EWMH window managers) treat
 * the agent keyboard's focus change as an activation and rewrite
 * `_NET_ACTIVE_WINDOW`; pointing the agent keyboard back at the window that
 * holds the core focus afterwards makes them report that window active again,
 * without raising anything or touching the core focus.
 *
 * @module
 */
import { x11 } from "../../../../ffi/linux/x11.ts";
import type { XConnection } from "../x11/connection.ts";
import { getCardinal, sendRootClientMessage } from "../x11/properties.ts";
import { serverTime } from "../x11/windows.ts";
import type { AgentMaster } from "./agent_master.ts";
import { coreFocus } from "./desktop_observer.ts";

const SETTLE_MS = 300;
const POLL_MS = 10;

/** Runs `body` with the agent keyboard focused on `windowId`, then restores. */
export async function withBackgroundKeyboard<T>(
  conn: XConnection,
  agent: AgentMaster,
  windowId: number,
  body: () => Promise<T>,
): Promise<T> {
  const priorActive = getCardinal(conn, conn.root, "_NET_ACTIVE_WINDOW") ?? 0n;
  const priorFocus = coreFocus(conn).window;
  agent.setFocus(BigInt(windowId));
  try {
    return await body();
  } finally {
    if (conn.alive) {
      x11.symbols.XSync(conn.unsafeDisplay(), 0);
      // Give the agent keyboard's focus to whatever the user's keyboard focuses.
      agent.setFocus(priorFocus > 1n ? priorFocus : priorActive);
      const active = () => getCardinal(conn, conn.root, "_NET_ACTIVE_WINDOW") ?? 0n;
      const deadline = Date.now() + SETTLE_MS;
      while (Date.now() < deadline && active() !== priorActive) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (active() !== priorActive && priorActive !== 0n) {
        // Last resort: ask the window manager directly (may raise the prior window, which was on top anyway).
        sendRootClientMessage(conn, priorActive, "_NET_ACTIVE_WINDOW", [2n, serverTime(conn), active()]);
      }
    }
  }
}
