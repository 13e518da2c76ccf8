/**
 * Screens of a Wayland session: the outputs the compositor announces, whole-output capture
 * with screencopy, and window capture as a crop of the output, only where the compositor's
 * layout vouches that the window is visible and nothing is on top of it (else refused with
 * the reason: the pixels there would be another window's). No client can read the real
 * pointer's position on Wayland: the cursor position is the one this driver last moved it to.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Rect } from "../../ports/geometry.ts";
import type {
  CursorPosition,
  DisplayInfo,
  RawImage,
  ScreenBackend,
  ScreenRecordingSource,
} from "../../ports/screen.ts";
import type { Output, WaylandDisplay } from "./display.ts";
import type { Screencopy } from "./screencopy.ts";
import type { NativeWindow, WaylandWindows } from "./windows.ts";

/** Where the driver's own pointer was last sent (the only position a Wayland client knows). */
export interface PointerMemory {
  last(): { x: number; y: number } | null;
}

/** The screen facility. */
export class WaylandScreen implements ScreenBackend {
  constructor(
    readonly display: WaylandDisplay,
    readonly screencopy: Screencopy,
    readonly windows: WaylandWindows,
    readonly pointer: PointerMemory,
  ) {}

  async #outputs(): Promise<Output[]> {
    return (await this.display.connected()).outputs;
  }

  async displays(): Promise<DisplayInfo[]> {
    const outputs = await this.#outputs();
    return outputs.map((output, i) => ({
      id: String(output.id),
      name: output.name || `output-${i}`,
      primary: i === 0,
      bounds: { ...output.bounds },
      nativeWidth: output.bounds.width * output.scale,
      nativeHeight: output.bounds.height * output.scale,
      scaleFactor: output.scale,
      refreshRateHz: 0,
    }));
  }

  /**
   * @throws {DriverError} `unsupported_platform` before the driver moved the pointer: a Wayland
   *   client cannot read the pointer's position.
   */
  cursorPosition(): Promise<CursorPosition> {
    const last = this.pointer.last();
    if (!last) {
      return Promise.reject(
        new DriverError(
          "unsupported_platform",
          "A Wayland client cannot read the pointer's position, and this driver has not moved it yet",
        ),
      );
    }
    return Promise.resolve({ ...last, source: "wayland_virtual_pointer_last_sent" });
  }

  /**
   * @throws {DriverError} `invalid_arguments` for an unknown display id.
   */
  async captureDisplay(displayId: string): Promise<RawImage> {
    const outputs = await this.#outputs();
    const output = outputs.find((o) => String(o.id) === displayId) ??
      (displayId === "" || displayId === "main" ? outputs[0] : undefined);
    if (!output) {
      throw new DriverError("invalid_arguments", `No output ${displayId}`, {
        hint: `known: ${outputs.map((o) => o.id).join(", ")}`,
      });
    }
    return await this.screencopy.capture(output.id);
  }

  /**
   * @throws {DriverError} `capture_failed` when the compositor's layout does not vouch for the
   *   window's pixels (not visible, covered, geometry unknown, or across outputs).
   */
  async captureWindow(windowId: number): Promise<{ image: RawImage; bounds: Rect }> {
    const windows = await this.windows.native();
    const window = windows.find((w) => w.windowId === windowId);
    if (!window) throw new DriverError("window_target_not_found", `No native Wayland window ${windowId}`);
    const refusal = uncapturable(window, windows);
    if (refusal) {
      throw new DriverError("capture_failed", `Window ${windowId} cannot be captured: ${refusal}`, {
        reason: refusal,
        hint: "bring the window to the front (bring_to_front) and retry, or capture the desktop",
      });
    }
    const outputs = await this.#outputs();
    const b = window.bounds;
    const output = outputs.find((o) =>
      b.x >= o.bounds.x && b.y >= o.bounds.y && b.x + b.width <= o.bounds.x + o.bounds.width &&
      b.y + b.height <= o.bounds.y + o.bounds.height
    );
    if (!output) {
      throw new DriverError("capture_failed", `Window ${windowId} is not inside one output`, {
        reason: "spans_outputs",
      });
    }
    const region = { x: b.x - output.bounds.x, y: b.y - output.bounds.y, width: b.width, height: b.height };
    const image = await this.screencopy.capture(output.id, region);
    return { image, bounds: { ...b, width: image.width, height: image.height } };
  }

  recordingSource(): Promise<ScreenRecordingSource> {
    return Promise.reject(
      new DriverError("unsupported_platform", "Screen recording is not implemented on Wayland", {
        hint: "ffmpeg's x11grab cannot see a Wayland session's native windows",
      }),
    );
  }

  /** Frees the capture buffer. */
  dispose(): void {
    this.screencopy.dispose();
  }
}

/**
 * Why the compositor's layout does not vouch for a window's pixels, or null when it does: the
 * window is visible and no window above it in the stacking overlaps it.
 */
export function uncapturable(window: NativeWindow, all: readonly NativeWindow[]): string | null {
  if (!window.geometryKnown) return "the compositor gives no window geometry (no sway IPC)";
  if (!window.isOnScreen) {
    return "the compositor says the window is not visible (another workspace, tab or hidden)";
  }
  if (window.bounds.width <= 0 || window.bounds.height <= 0) return "the window has no area";
  const above = all.filter((w) =>
    w.windowId !== window.windowId && w.isOnScreen && (w.zIndex ?? -1) > (window.zIndex ?? -1) &&
    intersects(w.bounds, window.bounds)
  );
  if (above.length) return `window ${above[0].windowId} (${JSON.stringify(above[0].title)}) is on top of it`;
  return null;
}

/** True when the rectangles overlap by at least one pixel. */
export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
