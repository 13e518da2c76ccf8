/**
 * Resolving and checking the window a call names.
 *
 * @module
 */
import { DriverError } from "../../src/ports/errors.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import type { WindowInfo } from "../../src/ports/windows.ts";

/**
 * Returns the window `windowId`, checking that it exists, belongs to `pid`, and
 * that the process is alive. Its `zIndex` is not read (null).
 *
 * @throws {DriverError} `window_target_not_found` or `window_stale`.
 */
export async function requireOwnedWindow(
  ctx: ToolContext,
  pid: number,
  windowId: number,
): Promise<WindowInfo> {
  const window = await ctx.backend.windows.get(windowId, { zIndex: false });
  if (!window) {
    throw new DriverError("window_target_not_found", `Window ${windowId} does not exist`, {
      pid,
      window_id: windowId,
      hint: "call list_windows to refresh window ids",
    });
  }
  if (window.pid === null) {
    throw new DriverError(
      "window_target_not_found",
      `Window ${windowId} has no verifiable owner pid (_NET_WM_PID)`,
      {
        pid,
        window_id: windowId,
        hint: "this window cannot be targeted by pid; use the desktop scope",
      },
    );
  }
  if (window.pid !== pid) {
    throw new DriverError(
      "window_target_not_found",
      `Window ${windowId} belongs to pid ${window.pid}, not pid ${pid}`,
      {
        pid,
        window_id: windowId,
        owner_pid: window.pid,
        hint: "pass the pid list_windows reports for this window",
      },
    );
  }
  if (!(await ctx.backend.apps.isAlive(pid))) {
    throw new DriverError(
      "window_stale",
      `Window target pid ${pid}, window_id ${windowId} is stale or no longer running`,
      { pid, window_id: windowId, hint: "refresh list_windows" },
    );
  }
  return window;
}

/** Windows of a pid that an action may target (on screen first). */
export async function windowsOfPid(ctx: ToolContext, pid: number): Promise<WindowInfo[]> {
  const windows = (await ctx.backend.windows.list()).filter((w) => w.pid === pid);
  return windows.sort((a, b) => Number(b.isOnScreen) - Number(a.isOnScreen));
}
