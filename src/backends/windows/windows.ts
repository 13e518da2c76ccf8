/**
 * Top-level windows through user32: EnumWindows in z-order, owner pid, title, class,
 * the visible frame (DWM extended frame where a compositor runs), visibility and
 * cloaking; SetWindowPos for frames; the foreground transaction for activation.
 *
 * A window's `bounds` on Windows is its whole visible frame: the title bar and menu are
 * drawn by the app itself, belong to its accessibility tree and appear in its screenshot.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { SWP, user32 } from "../../../ffi/windows/user32.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { WindowBackend, WindowInfo } from "../../ports/windows.ts";
import { bringToForeground, foregroundWindow } from "./input/foreground.ts";
import { processName } from "./processes.ts";
import {
  hwnd,
  isAppWindow,
  isWindow,
  topLevelWindows,
  visibleFrame,
  windowOwner,
  windowRect,
  windowTitle,
} from "./win32/hwnd.ts";

/** The Win32 window back end. */
export class Win32Windows implements WindowBackend {
  list(): Promise<WindowInfo[]> {
    // EnumWindows yields front to back; the interface wants bottom first.
    const windows = topLevelWindows().filter(isAppWindow).reverse();
    return Promise.resolve(
      windows.map((windowId, index) => describe(windowId, index)).filter((w) => w !== null),
    );
  }

  get(windowId: number): Promise<WindowInfo | null> {
    if (!isWindow(windowId)) return Promise.resolve(null);
    const stack = topLevelWindows().filter(isAppWindow).reverse();
    const index = stack.indexOf(windowId);
    return Promise.resolve(describe(windowId, index >= 0 ? index : null));
  }

  active(): Promise<number | null> {
    const window = foregroundWindow();
    return Promise.resolve(window === 0 ? null : window);
  }

  async activate(windowId: number): Promise<{ priorActive: number | null }> {
    requireWindow(windowId);
    const prior = foregroundWindow();
    if (!(await bringToForeground(windowId))) {
      throw new DriverError(
        "foreground_unavailable",
        `Windows did not make window ${windowId} the foreground window`,
        {
          hint: "another app holds the foreground lock; click the window once, or retry",
        },
      );
    }
    return { priorActive: prior === 0 || prior === windowId ? null : prior };
  }

  setFrame(windowId: number, frame: Rect): Promise<void> {
    requireWindow(windowId);
    // SetWindowPos takes the window rect; the visible frame can be smaller (invisible
    // resize borders on Windows 10/11), so add the difference back.
    const outer = windowRect(windowId);
    const visible = visibleFrame(windowId);
    const left = outer && visible ? visible.x - outer.x : 0;
    const top = outer && visible ? visible.y - outer.y : 0;
    const right = outer && visible ? (outer.x + outer.width) - (visible.x + visible.width) : 0;
    const bottom = outer && visible ? (outer.y + outer.height) - (visible.y + visible.height) : 0;
    const ok = user32.symbols.SetWindowPos(
      hwnd(windowId),
      null,
      Math.round(frame.x - left),
      Math.round(frame.y - top),
      Math.round(frame.width + left + right),
      Math.round(frame.height + top + bottom),
      SWP.NOZORDER | SWP.NOACTIVATE | SWP.NOOWNERZORDER,
    );
    if (!ok) {
      throw new DriverError("native_call_failed", `SetWindowPos refused window ${windowId}`, {
        api: "SetWindowPos",
        hint: "the window may be maximized, fixed-size, or owned by a more privileged process",
      });
    }
    return Promise.resolve();
  }
}

/** Throws `window_not_found` for a window that no longer exists. */
export function requireWindow(windowId: number): void {
  if (!isWindow(windowId)) {
    throw new DriverError("window_target_not_found", `Window ${windowId} does not exist`, {
      hint: "call list_windows for current window ids",
    });
  }
}

function describe(windowId: number, zIndex: number | null): WindowInfo | null {
  const bounds = visibleFrame(windowId);
  if (!bounds) return null;
  const { pid } = windowOwner(windowId);
  return {
    windowId,
    pid: pid || null,
    appName: processName(pid) ?? "",
    title: windowTitle(windowId),
    bounds,
    isOnScreen: user32.symbols.IsWindowVisible(hwnd(windowId)) !== 0 &&
      !user32.symbols.IsIconic(hwnd(windowId)),
    zIndex,
  };
}
