/**
 * Displays and capture through user32/gdi32: monitors from EnumDisplayMonitors, the
 * cursor from GetCursorPos, display capture by BitBlt of the screen DC, window capture
 * by PrintWindow(PW_RENDERFULLCONTENT) with a screen-DC crop as the fallback.
 *
 * The process is per-monitor DPI aware (set in `mod.ts`), so every coordinate here is a
 * physical pixel and a screen point equals a pixel (scaleFactor 1).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { fromWide, handleValue, readRect } from "../../../ffi/windows/_win.ts";
import {
  DEVMODEW,
  ENUM_CURRENT_SETTINGS,
  MONITORINFOEXW,
  MONITORINFOF_PRIMARY,
  SM,
  user32,
} from "../../../ffi/windows/user32.ts";
import type { Rect } from "../../ports/geometry.ts";
import type {
  CursorPosition,
  DisplayInfo,
  RawImage,
  ScreenBackend,
  ScreenRecordingSource,
} from "../../ports/screen.ts";
import { captureScreenRect, printWindow } from "./win32/capture.ts";
import { isWindow, topLevelAt, visibleFrame } from "./win32/hwnd.ts";

/** The Win32 screen back end. */
export class Win32Screen implements ScreenBackend {
  displays(): Promise<DisplayInfo[]> {
    return Promise.resolve(monitors());
  }

  cursorPosition(): Promise<CursorPosition> {
    const point = new Int32Array(2);
    if (!user32.symbols.GetCursorPos(point)) {
      throw new DriverError("native_call_failed", "GetCursorPos failed", {
        api: "GetCursorPos",
        hint: "the session has no interactive desktop (a service or a locked workstation)",
      });
    }
    return Promise.resolve({ x: point[0], y: point[1], source: "GetCursorPos" });
  }

  captureDisplay(displayId: string): Promise<RawImage> {
    const display = monitors().find((d) => d.id === displayId);
    if (!display) {
      throw new DriverError("invalid_arguments", `No display ${JSON.stringify(displayId)}`, {
        hint: "call get_screen_size for display ids",
      });
    }
    return Promise.resolve(captureOrThrow(display.bounds));
  }

  /** ffmpeg's gdigrab over the virtual screen (every monitor), cropped to even sizes for yuv420p. */
  recordingSource(options: { frameRate: number; drawCursor: boolean }): Promise<ScreenRecordingSource> {
    const left = user32.symbols.GetSystemMetrics(SM.XVIRTUALSCREEN);
    const top = user32.symbols.GetSystemMetrics(SM.YVIRTUALSCREEN);
    const fullWidth = user32.symbols.GetSystemMetrics(SM.CXVIRTUALSCREEN);
    const fullHeight = user32.symbols.GetSystemMetrics(SM.CYVIRTUALSCREEN);
    const width = fullWidth - (fullWidth % 2), height = fullHeight - (fullHeight % 2);
    return Promise.resolve({
      ffmpegInput: [
        "-f",
        "gdigrab",
        "-framerate",
        String(options.frameRate),
        "-draw_mouse",
        options.drawCursor ? "1" : "0",
        "-offset_x",
        String(left),
        "-offset_y",
        String(top),
        "-video_size",
        `${width}x${height}`,
        "-i",
        "desktop",
      ],
      width,
      height,
    });
  }

  captureWindow(windowId: number): Promise<{ image: RawImage; bounds: Rect }> {
    if (!isWindow(windowId)) {
      throw new DriverError("window_target_not_found", `Window ${windowId} does not exist`, {
        hint: "call list_windows for current window ids",
      });
    }
    const bounds = visibleFrame(windowId);
    if (!bounds || bounds.width <= 0 || bounds.height <= 0) {
      throw new DriverError("capture_failed", `Window ${windowId} has no visible area`, {
        hint: "the window is minimized or hidden; call bring_to_front first",
      });
    }
    // Uncovered windows: a screen crop is exact and fast. Covered ones: ask the window
    // to paint itself; where that gives nothing (Wine, some GPU windows), crop anyway.
    const covered = !cornersOnTop(windowId, bounds);
    const printed = covered ? printWindow(windowId, bounds.width, bounds.height) : null;
    return Promise.resolve({ image: printed ?? captureOrThrow(bounds), bounds });
  }
}

function captureOrThrow(rect: Rect): RawImage {
  const image = captureScreenRect(rect);
  if (!image) {
    throw new DriverError(
      "capture_failed",
      `BitBlt of ${rect.width}x${rect.height} at (${rect.x}, ${rect.y}) failed`,
      {
        api: "BitBlt",
        hint:
          "the session has no interactive desktop (a service, a locked workstation or a disconnected RDP session)",
      },
    );
  }
  return image;
}

/** True when the window is the top-level window at its four inner corners and centre. */
function cornersOnTop(windowId: number, r: Rect): boolean {
  const points = [
    [r.x + 2, r.y + 2],
    [r.x + r.width - 3, r.y + 2],
    [r.x + 2, r.y + r.height - 3],
    [r.x + r.width - 3, r.y + r.height - 3],
    [r.x + Math.floor(r.width / 2), r.y + Math.floor(r.height / 2)],
  ];
  return points.every(([x, y]) => topLevelAt(x, y) === windowId);
}

/** Every monitor, primary first. */
export function monitors(): DisplayInfo[] {
  const handles: number[] = [];
  const callback = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer", "pointer", "isize"], result: "i32" } as const,
    (monitor) => {
      handles.push(handleValue(monitor));
      return 1;
    },
  );
  try {
    user32.symbols.EnumDisplayMonitors(null, null, callback.pointer, 0n);
  } finally {
    callback.close();
  }
  const out: DisplayInfo[] = [];
  for (const monitor of handles) {
    const info = new Uint8Array(MONITORINFOEXW.size);
    const view = new DataView(info.buffer);
    view.setUint32(0, MONITORINFOEXW.size, true);
    if (!user32.symbols.GetMonitorInfoW(Deno.UnsafePointer.create(BigInt(monitor)), info)) continue;
    const rect = readRect(
      new Int32Array(info.buffer.slice(MONITORINFOEXW.monitor, MONITORINFOEXW.monitor + 16)),
    );
    const device = fromWide(
      new Uint16Array(info.buffer.slice(MONITORINFOEXW.device, MONITORINFOEXW.device + 64)),
    );
    const mode = new Uint8Array(DEVMODEW.size);
    const modeView = new DataView(mode.buffer);
    modeView.setUint16(DEVMODEW.dmSize, DEVMODEW.size, true);
    const hasMode = user32.symbols.EnumDisplaySettingsW(wideZ(device), ENUM_CURRENT_SETTINGS, mode) !== 0;
    const width = rect.right - rect.left;
    const height = rect.bottom - rect.top;
    out.push({
      id: String(out.length),
      name: device || `monitor ${out.length}`,
      primary: (view.getUint32(MONITORINFOEXW.flags, true) & MONITORINFOF_PRIMARY) !== 0,
      bounds: { x: rect.left, y: rect.top, width, height },
      nativeWidth: hasMode ? modeView.getUint32(DEVMODEW.pelsWidth, true) || width : width,
      nativeHeight: hasMode ? modeView.getUint32(DEVMODEW.pelsHeight, true) || height : height,
      scaleFactor: 1,
      refreshRateHz: hasMode ? Math.max(0, modeView.getUint32(DEVMODEW.frequency, true)) : 0,
    });
  }
  out.sort((a, b) => Number(b.primary) - Number(a.primary));
  return out.map((display, index) => ({ ...display, id: String(index) }));
}

function wideZ(text: string): Uint16Array<ArrayBuffer> {
  const units = new Uint16Array(text.length + 1);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}
