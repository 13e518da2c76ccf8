/**
 * The foreground transaction: make a window the foreground window (restoring it from
 * minimized), confirmed by `GetForegroundWindow`, and put the previous window and the
 * cursor back afterwards.
 *
 * Windows lets a process take the foreground only in some states (it received the last
 * input event, or the foreground process allowed it). Attaching our input queue to the
 * foreground window's thread for the duration of the call is the documented way to share
 * that right; the result is always checked, never assumed.
 *
 * @module
 */
import { kernel32 } from "../../../../ffi/windows/kernel32.ts";
import { handleValue } from "../../../../ffi/windows/_win.ts";
import { SW, user32 } from "../../../../ffi/windows/user32.ts";
import { hwnd, isWindow, rootOf, windowOwner } from "../win32/hwnd.ts";
import { waitUntil } from "../../../lib/wait.ts";

/** The top-level foreground window, 0 when none. */
export function foregroundWindow(): number {
  const window = handleValue(user32.symbols.GetForegroundWindow());
  return window === 0 ? 0 : rootOf(window);
}

/**
 * Brings `windowId` to the foreground and waits until Windows reports it there.
 *
 * @returns true when `GetForegroundWindow` confirms it
 */
export async function bringToForeground(windowId: number, timeoutMs = 1_500): Promise<boolean> {
  if (!isWindow(windowId)) return false;
  const target = hwnd(windowId);
  if (user32.symbols.IsIconic(target)) user32.symbols.ShowWindow(target, SW.RESTORE);
  if (foregroundWindow() === windowId) return true;
  const current = kernel32.symbols.GetCurrentThreadId();
  const foreground = user32.symbols.GetForegroundWindow();
  const threads = new Set<number>();
  if (foreground) threads.add(windowOwner(handleValue(foreground)).threadId);
  threads.add(windowOwner(windowId).threadId);
  threads.delete(current);
  const attached = [...threads].filter((thread) =>
    user32.symbols.AttachThreadInput(current, thread, 1) !== 0
  );
  try {
    user32.symbols.BringWindowToTop(target);
    user32.symbols.SetForegroundWindow(target);
  } finally {
    for (const thread of attached) user32.symbols.AttachThreadInput(current, thread, 0);
  }
  return await waitUntil(() => foregroundWindow() === windowId, timeoutMs);
}

/** What a transaction puts back. */
export interface ForegroundSnapshot {
  window: number;
  cursor: { x: number; y: number };
}

/** Reads the foreground window and the cursor position. */
export function snapshotForeground(): ForegroundSnapshot {
  const point = new Int32Array(2);
  user32.symbols.GetCursorPos(point);
  return { window: foregroundWindow(), cursor: { x: point[0], y: point[1] } };
}

/** Puts the cursor back and re-activates the previous window when it still exists. */
export async function restoreForeground(snapshot: ForegroundSnapshot): Promise<void> {
  user32.symbols.SetCursorPos(snapshot.cursor.x, snapshot.cursor.y);
  if (snapshot.window !== 0 && isWindow(snapshot.window) && foregroundWindow() !== snapshot.window) {
    await bringToForeground(snapshot.window);
  }
}
