/**
 * Displays, the pointer position, and captures of the screen and of windows on X11. The
 * capture code (MIT-SHM, XGetImage, pixel conversion) loads at the first capture: a call that
 * only asks for sizes or the pointer never loads it.
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
import type { X11Capture } from "./x11/capture.ts";
import type { XConnection } from "./x11/connection.ts";
import type * as XlibScreen from "./x11/xlib_screen.ts";
import type { XWire } from "../../lib/x11/wire.ts";
import { wireDisplays, wirePointer } from "./x11/wire_screen.ts";

/**
 * Keeps the driver's own overlays (the agent cursor) out of captures: `around` runs a
 * capture with them hidden; `windowsNeedIt` says whether window captures need that too
 * (they do not while windows are captured from their own XComposite pixmaps).
 */
export interface OverlayGuard {
  around<T>(capture: () => Promise<T>): Promise<T>;
  windowsNeedIt(): Promise<boolean>;
}

const NO_OVERLAYS: OverlayGuard = {
  around: (capture) => capture(),
  windowsNeedIt: () => Promise.resolve(false),
};

/** Screen facilities of one X display. */
export class X11Screen implements ScreenBackend {
  #capture: X11Capture | null = null;
  #xlibCode: typeof XlibScreen | null = null;

  /**
   * @param wire A wire connection to the same display (a one-shot call's): the monitor list and
   *   the pointer come from it while it is open, without loading Xlib (see wire.ts).
   */
  constructor(
    readonly connection: () => Promise<XConnection>,
    readonly overlays: OverlayGuard = NO_OVERLAYS,
    readonly wire: XWire | null = null,
  ) {}

  /** The capturer of the current connection (a new one after a reconnect); loads its code first. */
  async #capturer(): Promise<X11Capture> {
    const [{ X11Capture }, conn] = await Promise.all([import("./x11/capture.ts"), this.connection()]);
    if (!this.#capture || this.#capture.connection !== conn) {
      this.#capture?.dispose();
      this.#capture = new X11Capture(conn);
    }
    return this.#capture;
  }

  /** True when the last capture used MIT-SHM. */
  get usesShm(): boolean {
    return this.#capture?.usesShm ?? false;
  }

  /**
   * ffmpeg's x11grab of the whole X screen (every monitor), sizes rounded down to even
   * numbers for yuv420p (linux.md §5).
   */
  async recordingSource(options: { frameRate: number; drawCursor: boolean }): Promise<ScreenRecordingSource> {
    const displays = await this.displays();
    const right = Math.max(...displays.map((d) => d.bounds.x + d.bounds.width));
    const bottom = Math.max(...displays.map((d) => d.bounds.y + d.bounds.height));
    const width = right - (right % 2), height = bottom - (bottom % 2);
    return {
      ffmpegInput: [
        "-f",
        "x11grab",
        "-framerate",
        String(options.frameRate),
        "-draw_mouse",
        options.drawCursor ? "1" : "0",
        "-video_size",
        `${width}x${height}`,
        "-i",
        (await this.connection()).name,
      ],
      width,
      height,
    };
  }

  /** Monitors from RandR; the whole root window when RandR reports none. */
  async displays(): Promise<DisplayInfo[]> {
    const answer = await this.#overWire(wireDisplays);
    if (answer) return answer;
    const [conn, xlib] = await Promise.all([this.connection(), this.#xlib()]);
    return xlib.xlibDisplays(conn);
  }

  /** The core pointer position. */
  async cursorPosition(): Promise<CursorPosition> {
    const answer = await this.#overWire(wirePointer);
    if (answer) return answer;
    const [conn, xlib] = await Promise.all([this.connection(), this.#xlib()]);
    return xlib.xlibPointer(conn);
  }

  /** `ask`'s answer over the wire connection while it is open; null when Xlib must answer. */
  async #overWire<T>(ask: (wire: XWire) => Promise<T>): Promise<T | null> {
    if (!this.wire?.open) return null;
    try {
      return await ask(this.wire);
    } catch (error) {
      // A lost connection: Xlib answers (it reconnects, or says the display is unavailable).
      if (this.wire.open) throw error;
      return null;
    }
  }

  /** The Xlib code of this screen, loaded at first use. */
  async #xlib(): Promise<typeof XlibScreen> {
    return this.#xlibCode ??= await import("./x11/xlib_screen.ts");
  }

  /** Captures one display (by id, "primary" or "") from the root window. */
  async captureDisplay(
    displayId: string,
    options: { into?: Uint8Array; overlays?: boolean } = {},
  ): Promise<RawImage> {
    const conn = await this.connection();
    const displays = await this.displays();
    const display = displayId === "" || displayId === "primary"
      ? displays[0]
      : displays.find((d) => d.id === displayId || d.name === displayId);
    if (!display) {
      throw new DriverError("invalid_arguments", `Unknown display "${displayId}"`, {
        field: "display_id",
        hint: `use "primary" or one of ${displays.map((d) => `"${d.id}"`).join(", ")}`,
      });
    }
    const attributes = conn.windowAttributes(conn.root)!;
    const capturer = await this.#capturer();
    const capture = () =>
      capturer.capture(conn.root, display.bounds, attributes.visual, attributes.depth, options.into);
    // The root holds every window's pixels, the agent cursor's too: hide it for the capture, unless
    // a person watching should see it.
    return options.overlays ? await capture() : await this.overlays.around(capture);
  }

  /**
   * Captures a window's client area. Reads the window itself first (correct under
   * a compositing manager even when covered); if the server refuses (partly
   * off-screen), captures the visible part of the screen instead and pads it.
   */
  async captureWindow(
    windowId: number,
    options: { into?: Uint8Array } = {},
  ): Promise<{ image: RawImage; bounds: Rect }> {
    const [conn, xlib] = await Promise.all([this.connection(), this.#xlib()]);
    const window = BigInt(windowId);
    const attributes = conn.windowAttributes(window);
    const origin = conn.rootOrigin(window);
    if (!attributes || !origin) {
      throw new DriverError("window_target_not_found", `Window ${windowId} does not exist`, {
        window_id: windowId,
        hint: "call list_windows to refresh window ids",
      });
    }
    if (!xlib.isViewable(attributes.mapState)) {
      throw new DriverError("capture_failed", `Window ${windowId} is not viewable (minimized or unmapped)`, {
        window_id: windowId,
        hint: "restore the window (bring_to_front) before capturing it",
      });
    }
    const bounds = { x: origin.x, y: origin.y, width: attributes.rect.width, height: attributes.rect.height };
    const capturer = await this.#capturer();
    try {
      const read = () =>
        capturer.capture(
          window,
          { x: 0, y: 0, width: bounds.width, height: bounds.height },
          attributes.visual,
          attributes.depth,
          options.into,
        );
      // A window's own pixmap never holds the overlay; without one the read comes from the screen.
      const image = await this.overlays.windowsNeedIt() ? await this.overlays.around(read) : await read();
      return { image, bounds };
    } catch (error) {
      if (!(error instanceof DriverError) || error.code !== "capture_failed") throw error;
    }
    const { width, height } = conn.screenSize();
    const visible = intersect(bounds, { x: 0, y: 0, width, height });
    if (!visible) {
      throw new DriverError("capture_failed", `Window ${windowId} is entirely off-screen`, {
        window_id: windowId,
        hint: "move it on-screen with set_window_frame",
      });
    }
    const rootAttributes = conn.windowAttributes(conn.root)!;
    const part = await this.overlays.around(() =>
      capturer.capture(conn.root, visible, rootAttributes.visual, rootAttributes.depth)
    );
    return { image: pad(part, visible, bounds), bounds };
  }

  /** Releases capture resources. */
  dispose(): void {
    this.#capture?.dispose();
    this.#capture = null;
  }
}

function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width), bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/** Places a captured part inside a black image of the full bounds. */
function pad(part: RawImage, partRect: Rect, full: Rect): RawImage {
  const data = new Uint8Array(full.width * full.height * 4);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  const dx = partRect.x - full.x, dy = partRect.y - full.y;
  for (let y = 0; y < part.height; y++) {
    const src = part.data.subarray(y * part.width * 4, (y + 1) * part.width * 4);
    data.set(src, ((y + dy) * full.width + dx) * 4);
  }
  return { width: full.width, height: full.height, data };
}
