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
} from "../../src/backends/windows/win32/hwnd.ts";
import { CF, CONTROL_MSG, user32 } from "../../ffi/windows/user32.ts";
import { gdi32 } from "../../ffi/windows/gdi32.ts";
import { shell32 } from "../../ffi/windows/shell32.ts";
import { GMEM_MOVEABLE, kernel32 } from "../../ffi/windows/kernel32.ts";

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

/** The screen's colour at a point through GetPixel (an API the driver's capture does not use), as [r, g, b]. */
export function screenPixel(x: number, y: number): [number, number, number] {
  const dc = user32.symbols.GetDC(null);
  try {
    const colour = gdi32.symbols.GetPixel(dc, x, y);
    return [colour & 0xff, (colour >> 8) & 0xff, (colour >> 16) & 0xff];
  } finally {
    user32.symbols.ReleaseDC(null, dc);
  }
}

/** The clipboard's CF_UNICODETEXT, read by the test's own calls; null when absent. */
export function clipboardText(): string | null {
  if (!user32.symbols.OpenClipboard(null)) throw new Error("the clipboard is busy");
  try {
    const memory = user32.symbols.GetClipboardData(CF.UNICODETEXT);
    if (!memory) return null;
    const pointer = kernel32.symbols.GlobalLock(memory);
    if (!pointer) return null;
    try {
      const view = new Deno.UnsafePointerView(pointer);
      let text = "";
      for (let i = 0;; i += 2) {
        const unit = view.getUint16(i);
        if (unit === 0) break;
        text += String.fromCharCode(unit);
      }
      return text;
    } finally {
      kernel32.symbols.GlobalUnlock(memory);
    }
  } finally {
    user32.symbols.CloseClipboard();
  }
}

/** Puts text on the clipboard with the test's own calls (no owner window: fine for one-shot test data). */
export function setClipboardText(text: string): void {
  if (!user32.symbols.OpenClipboard(null)) throw new Error("the clipboard is busy");
  try {
    user32.symbols.EmptyClipboard();
    const bytes = new Uint8Array((text.length + 1) * 2);
    for (let i = 0; i < text.length; i++) {
      new DataView(bytes.buffer).setUint16(i * 2, text.charCodeAt(i), true);
    }
    const memory = kernel32.symbols.GlobalAlloc(GMEM_MOVEABLE, BigInt(bytes.length));
    const pointer = kernel32.symbols.GlobalLock(memory)!;
    new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, bytes.length)).set(bytes);
    kernel32.symbols.GlobalUnlock(memory);
    if (!user32.symbols.SetClipboardData(CF.UNICODETEXT, memory)) throw new Error("SetClipboardData failed");
  } finally {
    user32.symbols.CloseClipboard();
  }
}

/** The clipboard's CF_DIB as width, height and a pixel reader ([r, g, b] at x, y from the top). */
export function clipboardDib(): {
  width: number;
  height: number;
  pixel(x: number, y: number): [number, number, number];
} | null {
  if (!user32.symbols.OpenClipboard(null)) throw new Error("the clipboard is busy");
  try {
    const memory = user32.symbols.GetClipboardData(CF.DIB);
    if (!memory) return null;
    const pointer = kernel32.symbols.GlobalLock(memory);
    if (!pointer) return null;
    try {
      const size = Number(kernel32.symbols.GlobalSize(memory));
      const bytes = new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, size).slice(0));
      const view = new DataView(bytes.buffer);
      const header = view.getUint32(0, true), width = view.getInt32(4, true), height = view.getInt32(8, true);
      const bits = view.getUint16(14, true), compression = view.getUint32(16, true);
      const offset = header + (compression === 3 && header === 40 ? 12 : 0);
      const stride = Math.ceil((width * bits) / 32) * 4;
      return {
        width,
        height: Math.abs(height),
        pixel(x, y) {
          const row = height > 0 ? Math.abs(height) - 1 - y : y;
          const o = offset + row * stride + x * (bits / 8);
          return [bytes[o + 2], bytes[o + 1], bytes[o]];
        },
      };
    } finally {
      kernel32.symbols.GlobalUnlock(memory);
    }
  } finally {
    user32.symbols.CloseClipboard();
  }
}

/** The paths of the clipboard's CF_HDROP, read by the test's own calls; [] when absent. */
export function clipboardFileList(): string[] {
  if (!user32.symbols.OpenClipboard(null)) throw new Error("the clipboard is busy");
  try {
    const drop = user32.symbols.GetClipboardData(CF.HDROP);
    if (!drop) return [];
    const count = shell32.symbols.DragQueryFileW(drop, 0xffffffff, null, 0);
    return Array.from({ length: count }, (_, i) => {
      const buffer = new Uint16Array(1024);
      const length = shell32.symbols.DragQueryFileW(drop, i, buffer, buffer.length);
      return String.fromCharCode(...buffer.subarray(0, length));
    });
  } finally {
    user32.symbols.CloseClipboard();
  }
}
