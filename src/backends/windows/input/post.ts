/**
 * Posting input messages to a window of another process, and waiting until its thread
 * has handled them.
 *
 * A thread handles sent messages before it takes the next posted one, and each
 * GetMessage call handles every pending sent message first. So once a SendMessage round
 * trip returns N+1 times in a row, the N messages posted before it have been taken and
 * dispatched: {@linkcode PostedQueue.flush} relies on that, bounded by a time budget.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { ERROR, kernel32 } from "../../../../ffi/windows/kernel32.ts";
import { user32, WM } from "../../../../ffi/windows/user32.ts";
import { hwnd, isWindow, rootOf, sendMessage } from "../win32/hwnd.ts";

/** Counts messages posted per window so they can be flushed later. */
export class PostedQueue {
  #pending = new Map<number, number>();

  /**
   * PostMessageW.
   *
   * @throws {DriverError} `window_stale` when the window is gone, `permission_denied`
   *   when UIPI blocks it (a higher-integrity process)
   */
  post(windowId: number, message: number, wParam: bigint | number, lParam: bigint | number): void {
    const ok = user32.symbols.PostMessageW(
      hwnd(windowId),
      message,
      BigInt.asUintN(64, BigInt(wParam)),
      BigInt.asIntN(64, BigInt(lParam)),
    );
    if (!ok) {
      const code = kernel32.symbols.GetLastError();
      if (!isWindow(windowId) || code === ERROR.INVALID_WINDOW_HANDLE) {
        throw new DriverError("window_stale", `Window ${windowId} went away while input was posted to it`, {
          hint: "call get_window_state again",
        });
      }
      if (code === ERROR.ACCESS_DENIED) {
        throw new DriverError(
          "permission_denied",
          `Windows refused to post input to window ${windowId} (UIPI)`,
          {
            effect: "refused",
            hint: "the app runs elevated; run the driver as administrator to act on it",
          },
        );
      }
      throw new DriverError("delivery_failed", `PostMessage to window ${windowId} failed (error ${code})`, {
        api: "PostMessageW",
        status: code,
        hint: 'retry with delivery_mode "foreground"',
      });
    }
    const root = rootOf(windowId) || windowId;
    this.#pending.set(root, (this.#pending.get(root) ?? 0) + 1);
  }

  /** Waits (up to `budgetMs`) until the thread of `windowId` has handled what was posted to it. */
  async flush(windowId: number, budgetMs = 2_000): Promise<void> {
    const root = rootOf(windowId) || windowId;
    const pending = this.#pending.get(root) ?? 0;
    this.#pending.delete(root);
    const deadline = performance.now() + budgetMs;
    for (let i = 0; i <= Math.min(pending, 64); i++) {
      if (!isWindow(root) || performance.now() > deadline) return;
      if (sendMessage(root, WM.NULL, 0, 0) === null) return;
      // Let other tasks of the event loop run between round trips.
      if (i % 8 === 7) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** Flushes every window that has pending messages. */
  async flushAll(budgetMs = 2_000): Promise<void> {
    for (const root of [...this.#pending.keys()]) await this.flush(root, budgetMs);
  }
}
