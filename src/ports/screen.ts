/**
 * The screen capability: displays, captures and the real pointer's position. Window ids are
 * opaque numbers (an XID on X11, an HWND on Windows, a CGWindowID on macOS).
 *
 * @module
 */

import type { Point, Rect } from "./geometry.ts";

/** Raw pixels, tightly packed RGBA, 4 bytes per pixel, row after row. */
export interface RawImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** One attached display. */
export interface DisplayInfo {
  id: string;
  name: string;
  primary: boolean;
  /** Bounds in screen points. */
  bounds: Rect;
  /** Physical pixel size. */
  nativeWidth: number;
  nativeHeight: number;
  /** Pixels per point. */
  scaleFactor: number;
  /** 0 when unknown (Xvfb). */
  refreshRateHz: number;
}

/** Pointer position and where it came from. */
export interface CursorPosition extends Point {
  source: string;
}

/** Where ffmpeg grabs the screen from on this desktop (start_recording's video). */
export interface ScreenRecordingSource {
  /** ffmpeg input options up to and including `-i <device>` (x11grab, gdigrab, avfoundation). */
  ffmpegInput: string[];
  /** Size of the grabbed area in pixels, even (yuv420p). */
  width: number;
  height: number;
}

/** Screen capture and display geometry. */
export interface ScreenBackend {
  displays(): Promise<DisplayInfo[]>;
  cursorPosition(): Promise<CursorPosition>;
  /**
   * Captures a whole display. With `into` (as for {@linkcode captureWindow}) a back end may fill
   * that buffer when it is exactly the pixels' size; with `overlays`, the driver's own overlay
   * windows (the agent cursor) are left on screen and captured, for a person watching.
   */
  captureDisplay(displayId: string, options?: { into?: Uint8Array; overlays?: boolean }): Promise<RawImage>;
  /**
   * Captures a window's client area; the result matches `bounds` of the window. With `into`,
   * a back end may put the pixels (BGRX, 4 bytes per pixel, rows unpadded) in that buffer when
   * it is exactly their size, instead of a new one: the caller owns it and no longer needs its
   * contents (a new buffer costs a page fault per 4 KiB, ~6 ms per 560x720 frame here).
   */
  captureWindow(
    windowId: number,
    options?: { into?: Uint8Array },
  ): Promise<{ image: RawImage; bounds: Rect }>;
  /**
   * Where a screen recorder grabs the whole desktop (every display), at `frameRate`, with
   * or without the real pointer drawn.
   *
   * @throws {DriverError} `unsupported_platform` where no grabber reaches this desktop (Wayland).
   */
  recordingSource(options: { frameRate: number; drawCursor: boolean }): Promise<ScreenRecordingSource>;
}
