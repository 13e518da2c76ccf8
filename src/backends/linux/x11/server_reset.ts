/**
 * An X server that resets when its last client leaves (Xvfb and Xorg without `-noreset`)
 * refuses connections for a moment while it does. Closing a probe connection, ours or
 * anyone's, and opening the real one right after lands in that moment often (5 of 16
 * tries on a loaded machine), so a failed open is retried while the server that holds
 * the display is still alive.
 *
 * @module
 */
import { parseDisplayName } from "../../../lib/x11/wire.ts";

/** Waits between attempts while a live server refuses: about 2.5 s in all. */
const RETRY_WAITS_MS = [10, 20, 40, 80, 160, 320, 640, 1200];

/** The pid in the lock file of a local display name (":7", ":7.0", "unix:7"), or null. */
export function localServerPid(name: string): number | null {
  const address = parseDisplayName(name);
  if (!address?.socket) return null;
  try {
    const pid = Number(Deno.readTextFileSync(`/tmp/.X${address.display}-lock`).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** True while the process in the display's lock file exists (a crashed server leaves its lock behind). */
function serverAlive(name: string): boolean {
  const pid = localServerPid(name);
  if (pid === null) return false;
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/** Blocks the thread for `ms` (open is synchronous, and this happens only while a server resets). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Calls `attempt` until it returns a value, retrying while a live local server holds
 * the display; gives up (returns null) at once for a display with no live server.
 */
export function openThroughReset<T>(name: string, attempt: () => T | null): T | null {
  let result = attempt();
  for (const wait of RETRY_WAITS_MS) {
    if (result !== null || !serverAlive(name)) return result;
    pause(wait);
    result = attempt();
  }
  return result;
}
