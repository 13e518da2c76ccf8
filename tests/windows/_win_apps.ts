/**
 * Test helpers for the Windows suite: stock apps started and found by pid, the
 * independent Win32 readers the tests judge by (WM_GETTEXT, BM_GETCHECK, window rects),
 * and waiting on conditions.
 *
 * @module
 */
import {
  className,
  controlText,
  descendantWindows,
  isAppWindow,
  isWindow,
  sendMessage,
  topLevelWindows,
  windowOwner,
  windowTitle,
} from "../../src/platform/windows/win32/hwnd.ts";
import { CONTROL_MSG } from "../../ffi/windows/user32.ts";

/** True when the suite runs on Windows (or Wine). */
export const onWindows = Deno.build.os === "windows";

/** Waits until `check` returns a truthy value, polling every 20 ms, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A stock app started for one test, killed on dispose. */
export class StockApp implements AsyncDisposable {
  constructor(readonly child: Deno.ChildProcess, readonly windowId: number) {}

  get pid(): number {
    return this.child.pid;
  }

  /** Starts `exe` and waits for its first app window. */
  static async start(exe: string, args: string[] = [], windowClass?: string): Promise<StockApp> {
    const child = new Deno.Command(exe, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
    try {
      const windowId = await waitFor(
        `a window of ${exe}`,
        () =>
          topLevelWindows().find((w) =>
            windowOwner(w).pid === child.pid && isAppWindow(w) &&
            (!windowClass || className(w) === windowClass)
          ),
      );
      return new StockApp(child, windowId);
    } catch (error) {
      child.kill();
      await child.status;
      throw error;
    }
  }

  /** The first descendant control of class `cls` (and text matching `text`). */
  control(cls: string, text?: RegExp, root = this.windowId): number {
    const found = descendantWindows(root).find((w) =>
      className(w) === cls && (!text || text.test(windowTitle(w)))
    );
    if (!found) throw new Error(`No ${cls} control${text ? ` matching ${text}` : ""} in window ${root}`);
    return found;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.child.kill();
    } catch {
      // Already gone.
    }
    await this.child.status;
  }
}

/** WM_GETTEXT of a control, read independently of the driver. */
export function textOf(control: number): string {
  return controlText(control) ?? "";
}

/** BM_GETCHECK of a button. */
export function checkOf(button: number): number {
  return Number(sendMessage(button, CONTROL_MSG.BM_GETCHECK, 0, 0) ?? -1n);
}

/** The top-level windows of a process. */
export function windowsOf(pid: number): number[] {
  return topLevelWindows().filter((w) => isWindow(w) && windowOwner(w).pid === pid);
}
