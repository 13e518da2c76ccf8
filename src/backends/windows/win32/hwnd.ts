/**
 * Reading windows by HWND: text, class, owner process, rectangles, styles, the
 * top-level z-order and the child tree. Messages to other processes go through
 * `SendMessageTimeoutW` with SMTO_ABORTIFHUNG so a hung app cannot hang the driver.
 *
 * @module
 */
import { wstr } from "../../../../ffi/_c.ts";
import {
  fromWide,
  handle,
  handleValue,
  pointByValue,
  readRect,
  rectBuffer,
  wideBuffer,
} from "../../../../ffi/windows/_win.ts";
import { dwmapi, DWMWA } from "../../../../ffi/windows/dwmapi.ts";
import { CWP, GA, GW, GWL, SMTO, user32, WM, WS, WS_EX } from "../../../../ffi/windows/user32.ts";
import type { Rect } from "../../../ports/geometry.ts";

/** How long a message to another process may take before the app counts as hung. */
export const MESSAGE_TIMEOUT_MS = 2_000;

/** The pointer for a window id. */
export function hwnd(windowId: number): Deno.PointerValue {
  return handle(windowId);
}

/** True while the window exists. */
export function isWindow(windowId: number): boolean {
  return windowId !== 0 && user32.symbols.IsWindow(hwnd(windowId)) !== 0;
}

/** GetWindowTextW (the caption; for a control in another process use {@linkcode controlText}). */
export function windowTitle(windowId: number): string {
  const buffer = wideBuffer(1024);
  const length = user32.symbols.GetWindowTextW(hwnd(windowId), buffer, buffer.length);
  return fromWide(buffer, length);
}

/** The window class name ("Notepad", "Edit", "#32770"). */
export function className(windowId: number): string {
  const buffer = wideBuffer(256);
  const length = user32.symbols.GetClassNameW(hwnd(windowId), buffer, buffer.length);
  return fromWide(buffer, length);
}

/** The owning process and thread. */
export function windowOwner(windowId: number): { pid: number; threadId: number } {
  const pid = new Uint32Array(1);
  const threadId = user32.symbols.GetWindowThreadProcessId(hwnd(windowId), pid);
  return { pid: pid[0], threadId };
}

/** SendMessageTimeoutW with a numeric lParam; null when the app did not answer in time. */
export function sendMessage(
  windowId: number,
  message: number,
  wParam: bigint | number,
  lParam: bigint | number,
): bigint | null {
  const result = new BigUint64Array(1);
  const ok = user32.symbols.SendMessageTimeoutW(
    hwnd(windowId),
    message,
    BigInt(wParam),
    BigInt(lParam),
    SMTO.ABORTIFHUNG | SMTO.ERRORONEXIT,
    MESSAGE_TIMEOUT_MS,
    result,
  );
  return ok === 0n ? null : result[0];
}

/** SendMessageTimeoutW with a buffer lParam; null when the app did not answer in time. */
export function sendMessageBuffer(
  windowId: number,
  message: number,
  wParam: bigint | number,
  buffer: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer>,
): bigint | null {
  const result = new BigUint64Array(1);
  const ok = user32.symbols.SendMessageTimeoutBufferW(
    hwnd(windowId),
    message,
    BigInt(wParam),
    buffer,
    SMTO.ABORTIFHUNG | SMTO.ERRORONEXIT,
    MESSAGE_TIMEOUT_MS,
    result,
  );
  return ok === 0n ? null : result[0];
}

/** A control's text through WM_GETTEXT (works across processes); null when the app is hung. */
export function controlText(windowId: number): string | null {
  const length = sendMessage(windowId, WM.GETTEXTLENGTH, 0, 0);
  if (length === null) return null;
  const buffer = wideBuffer(Number(length) + 1);
  const copied = sendMessageBuffer(windowId, WM.GETTEXT, buffer.length, buffer);
  if (copied === null) return null;
  return fromWide(buffer, Math.min(Number(copied), Number(length)));
}

/** Replaces a control's text through WM_SETTEXT; false when refused or hung. */
export function setControlText(windowId: number, text: string): boolean {
  const result = sendMessageBuffer(windowId, WM.SETTEXT, 0, wstr(text));
  return result !== null && result !== 0n;
}

/** GetWindowRect in screen pixels. */
export function windowRect(windowId: number): Rect | null {
  const buffer = rectBuffer();
  if (!user32.symbols.GetWindowRect(hwnd(windowId), buffer)) return null;
  const r = readRect(buffer);
  return { x: r.left, y: r.top, width: r.right - r.left, height: r.bottom - r.top };
}

/**
 * The visible frame: DWM's extended frame bounds where a compositor runs (excludes the
 * invisible resize borders of Windows 10/11), else GetWindowRect.
 */
export function visibleFrame(windowId: number): Rect | null {
  if (dwmapi.available()) {
    const buffer = rectBuffer();
    const hr = dwmapi.symbols.DwmGetWindowAttribute(
      hwnd(windowId),
      DWMWA.EXTENDED_FRAME_BOUNDS,
      new Uint8Array(buffer.buffer),
      16,
    );
    if (hr === 0) {
      const r = readRect(buffer);
      if (r.right > r.left && r.bottom > r.top) {
        return { x: r.left, y: r.top, width: r.right - r.left, height: r.bottom - r.top };
      }
    }
  }
  return windowRect(windowId);
}

/** The client area in screen pixels. */
export function clientRect(windowId: number): Rect | null {
  const buffer = rectBuffer();
  if (!user32.symbols.GetClientRect(hwnd(windowId), buffer)) return null;
  const origin = new Int32Array(2);
  if (!user32.symbols.ClientToScreen(hwnd(windowId), origin)) return null;
  return { x: origin[0], y: origin[1], width: buffer[2], height: buffer[3] };
}

/** True when DWM reports the window cloaked (on another virtual desktop, or a suspended UWP app). */
export function isCloaked(windowId: number): boolean {
  if (!dwmapi.available()) return false;
  const cloaked = new Uint32Array(1);
  const hr = dwmapi.symbols.DwmGetWindowAttribute(
    hwnd(windowId),
    DWMWA.CLOAKED,
    new Uint8Array(cloaked.buffer),
    4,
  );
  return hr === 0 && cloaked[0] !== 0;
}

/** Window style bits. */
export function style(windowId: number): number {
  return Number(BigInt.asUintN(32, BigInt(user32.symbols.GetWindowLongPtrW(hwnd(windowId), GWL.STYLE))));
}

/** Extended window style bits. */
export function exStyle(windowId: number): number {
  return Number(BigInt.asUintN(32, BigInt(user32.symbols.GetWindowLongPtrW(hwnd(windowId), GWL.EXSTYLE))));
}

/** The top-level window that contains `windowId` (itself for a top-level window). */
export function rootOf(windowId: number): number {
  return handleValue(user32.symbols.GetAncestor(hwnd(windowId), GA.ROOT));
}

/** The owner window (a dialog's main window), 0 when none. */
export function ownerOf(windowId: number): number {
  return handleValue(user32.symbols.GetWindow(hwnd(windowId), GW.OWNER));
}

/** Collects the windows an EnumWindows-style call reports through its callback. */
function collect(enumerate: (callback: Deno.PointerObject) => void): number[] {
  const out: number[] = [];
  const callback = new Deno.UnsafeCallback(
    { parameters: ["pointer", "isize"], result: "i32" } as const,
    (window) => {
      out.push(handleValue(window));
      return 1;
    },
  );
  try {
    enumerate(callback.pointer);
  } finally {
    callback.close();
  }
  return out;
}

/** Top-level windows, front (top of the z-order) first. */
export function topLevelWindows(): number[] {
  return collect((callback) => user32.symbols.EnumWindows(callback, 0n));
}

/** Every descendant window of `windowId` (EnumChildWindows order: depth first, z-order). */
export function descendantWindows(windowId: number): number[] {
  return collect((callback) => user32.symbols.EnumChildWindows(hwnd(windowId), callback, 0n));
}

/** The parent of a child window (0 for a top-level window). */
export function parentOf(windowId: number): number {
  return handleValue(user32.symbols.GetAncestor(hwnd(windowId), GA.PARENT));
}

/**
 * True for a window a user would call an app window: visible, not a child, not a tool
 * window without the app-window bit, not cloaked, with a non-empty frame.
 */
export function isAppWindow(windowId: number): boolean {
  if (!user32.symbols.IsWindowVisible(hwnd(windowId))) return false;
  const s = style(windowId);
  if (s & WS.CHILD) return false;
  const ex = exStyle(windowId);
  if ((ex & WS_EX.TOOLWINDOW) && !(ex & WS_EX.APPWINDOW)) return false;
  if (isCloaked(windowId)) return false;
  const rect = windowRect(windowId);
  return rect !== null && rect.width > 0 && rect.height > 0;
}

/** The top-level window under a screen point (what real pointer input there would reach). */
export function topLevelAt(x: number, y: number): number {
  const child = handleValue(user32.symbols.WindowFromPoint(pointByValue(x, y)));
  return child === 0 ? 0 : rootOf(child);
}

/** The deepest visible, enabled child window of `windowId` under a screen point (itself when none). */
export function deepestChildAt(windowId: number, x: number, y: number): number {
  let current = windowId;
  for (let depth = 0; depth < 32; depth++) {
    const origin = new Int32Array([x, y]);
    if (!user32.symbols.ScreenToClient(hwnd(current), origin)) return current;
    const child = handleValue(
      user32.symbols.ChildWindowFromPointEx(
        hwnd(current),
        pointByValue(origin[0], origin[1]),
        CWP.SKIPINVISIBLE | CWP.SKIPTRANSPARENT,
      ),
    );
    if (child === 0 || child === current) return current;
    current = child;
  }
  return current;
}
