/**
 * SendInput batches: INPUT structs for virtual keys, Unicode characters, absolute
 * pointer motion, buttons and wheels. One batch is atomic: no other input interleaves.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { kernel32 } from "../../../../ffi/windows/kernel32.ts";
import {
  INPUT_SIZE,
  INPUT_TYPE,
  KEYEVENTF,
  MAPVK,
  MOUSEEVENTF,
  SM,
  user32,
  WHEEL_DELTA,
  XBUTTON,
} from "../../../../ffi/windows/user32.ts";
import type { Point } from "../../../ports/geometry.ts";
import type { MouseButton } from "../../../ports/input.ts";

/** One keyboard event: a virtual key or a UTF-16 unit. */
export type KeyEvent =
  | { vk: number; extended?: boolean; up: boolean }
  | { unit: number; up: boolean };

/** One pointer event. */
export type PointerEvent =
  | { move: Point }
  | { button: MouseButton; down: boolean }
  | { wheel: number; horizontal: boolean };

/** Encodes keyboard events as INPUT structs (KEYBDINPUT at +8: wVk@0 wScan@2 dwFlags@4). */
export function keyInputs(events: readonly KeyEvent[]): Uint8Array<ArrayBuffer> {
  const buffer = new Uint8Array(INPUT_SIZE * events.length);
  const view = new DataView(buffer.buffer);
  events.forEach((event, i) => {
    const o = i * INPUT_SIZE;
    view.setUint32(o, INPUT_TYPE.KEYBOARD, true);
    if ("unit" in event) {
      view.setUint16(o + 8, 0, true);
      view.setUint16(o + 10, event.unit, true);
      view.setUint32(o + 12, KEYEVENTF.UNICODE | (event.up ? KEYEVENTF.KEYUP : 0), true);
    } else {
      const scan = user32.symbols.MapVirtualKeyExW(event.vk, MAPVK.VK_TO_VSC, null);
      view.setUint16(o + 8, event.vk, true);
      view.setUint16(o + 10, scan, true);
      view.setUint32(
        o + 12,
        (event.extended ? KEYEVENTF.EXTENDEDKEY : 0) | (event.up ? KEYEVENTF.KEYUP : 0),
        true,
      );
    }
  });
  return buffer;
}

const BUTTON_FLAGS: Record<MouseButton, [number, number, number]> = {
  left: [MOUSEEVENTF.LEFTDOWN, MOUSEEVENTF.LEFTUP, 0],
  right: [MOUSEEVENTF.RIGHTDOWN, MOUSEEVENTF.RIGHTUP, 0],
  middle: [MOUSEEVENTF.MIDDLEDOWN, MOUSEEVENTF.MIDDLEUP, 0],
  back: [MOUSEEVENTF.XDOWN, MOUSEEVENTF.XUP, XBUTTON.X1],
  forward: [MOUSEEVENTF.XDOWN, MOUSEEVENTF.XUP, XBUTTON.X2],
};

/**
 * Encodes pointer events as INPUT structs (MOUSEINPUT at +8: dx@0 dy@4 mouseData@8
 * dwFlags@12). Motion is absolute over the virtual screen (0..65535 on each axis).
 */
export function pointerInputs(events: readonly PointerEvent[]): Uint8Array<ArrayBuffer> {
  const buffer = new Uint8Array(INPUT_SIZE * events.length);
  const view = new DataView(buffer.buffer);
  const left = user32.symbols.GetSystemMetrics(SM.XVIRTUALSCREEN);
  const top = user32.symbols.GetSystemMetrics(SM.YVIRTUALSCREEN);
  const width = Math.max(2, user32.symbols.GetSystemMetrics(SM.CXVIRTUALSCREEN));
  const height = Math.max(2, user32.symbols.GetSystemMetrics(SM.CYVIRTUALSCREEN));
  events.forEach((event, i) => {
    const o = i * INPUT_SIZE;
    view.setUint32(o, INPUT_TYPE.MOUSE, true);
    if ("move" in event) {
      view.setInt32(o + 8, Math.round(((event.move.x - left) * 65535) / (width - 1)), true);
      view.setInt32(o + 12, Math.round(((event.move.y - top) * 65535) / (height - 1)), true);
      view.setUint32(o + 20, MOUSEEVENTF.MOVE | MOUSEEVENTF.ABSOLUTE | MOUSEEVENTF.VIRTUALDESK, true);
    } else if ("button" in event) {
      const [down, up, data] = BUTTON_FLAGS[event.button];
      view.setInt32(o + 16, data, true);
      view.setUint32(o + 20, event.down ? down : up, true);
    } else {
      view.setInt32(o + 16, event.wheel * WHEEL_DELTA, true);
      view.setUint32(o + 20, event.horizontal ? MOUSEEVENTF.HWHEEL : MOUSEEVENTF.WHEEL, true);
    }
  });
  return buffer;
}

/**
 * Sends one batch.
 *
 * @returns how many events Windows accepted
 * @throws {DriverError} `foreground_unavailable` when Windows accepted none (UIPI, a
 *   secure desktop, a locked workstation)
 */
export function sendInputs(buffer: Uint8Array<ArrayBuffer>): number {
  const count = buffer.length / INPUT_SIZE;
  if (count === 0) return 0;
  const sent = user32.symbols.SendInput(count, buffer, INPUT_SIZE);
  if (sent === 0) {
    const code = kernel32.symbols.GetLastError();
    throw new DriverError("foreground_unavailable", `SendInput accepted no input (error ${code})`, {
      api: "SendInput",
      status: code,
      hint: "the desktop is locked or a secure desktop (UAC, Ctrl+Alt+Del) is showing; unlock it and retry",
    });
  }
  return sent;
}
