/**
 * Displays, the pointer position and capture through CoreGraphics.
 *
 * Capture uses `CGDisplayCreateImage` and `CGWindowListCreateImage` up to macOS 14.
 * Apple removed both from the macOS 15 SDK (not from the OS: dlsym still finds them,
 * and calling them makes macOS prompt the user monthly), so from macOS 15 on, and
 * wherever they are missing, capture goes through `screencapture` (screencapture.ts).
 * An image with no pixels (0x0, or every pixel transparent: a window the window server
 * will not show this process) is `capture_failed`, never an empty screenshot.
 *
 * @module
 */
import { CGWindowImageOption, CGWindowListOption } from "../../../ffi/darwin/core_graphics.ts";
import { CG_RECT_NULL, readCGPoint, readCGRect } from "../../../ffi/darwin/geometry.ts";
import { DriverError } from "../../ports/errors.ts";
import type { Rect } from "../../ports/geometry.ts";
import type {
  CursorPosition,
  DisplayInfo,
  RawImage,
  ScreenBackend,
  ScreenRecordingSource,
} from "../../ports/screen.ts";
import type { CFRef } from "./cf.ts";
import type { DarwinContext } from "./context.ts";
import { macOSMajor } from "./os_version.ts";
import { toRgba } from "./pixels.ts";
import { type CommandRunner, runCommand, SCREENCAPTURE, screencapture } from "./screencapture.ts";
import { requireScreenCapture } from "./tcc.ts";
import { requireWindow } from "./window_list.ts";
import { settled } from "./settled.ts";

const MAX_DISPLAYS = 32;

function captureRemoved(what: string): DriverError {
  return new DriverError(
    "unsupported_platform",
    `${what} is not available: this macOS no longer exports CGDisplayCreateImage/CGWindowListCreateImage ` +
      `and has no ${SCREENCAPTURE}`,
    {
      hint:
        "this macOS offers capture only through ScreenCaptureKit (SCScreenshotManager), which the driver " +
        "does not call; use the accessibility tree (get_window_state with include_screenshot false)",
    },
  );
}

/** The first macOS whose SDK lacks the CoreGraphics capture calls. */
export const CG_CAPTURE_REMOVED_IN = 15;

/** How this Mac captures: the CoreGraphics calls, screencapture, or neither. */
export function captureRoute(ctx: DarwinContext, hasTool: boolean): "coregraphics" | "screencapture" | null {
  const { cg } = ctx.fw;
  const legacy = cg.CGWindowListCreateImage !== null && cg.CGDisplayCreateImage !== null;
  const major = macOSMajor(ctx);
  if (legacy && (major === null || major < CG_CAPTURE_REMOVED_IN)) return "coregraphics";
  return hasTool ? "screencapture" : null;
}

/** An image that holds no pixels: 0x0, or every pixel fully transparent. */
function emptyImage(image: RawImage): boolean {
  if (image.width === 0 || image.height === 0) return true;
  for (let i = 3; i < image.data.length; i += 4) if (image.data[i] !== 0) return false;
  return true;
}

function noPixels(what: string, windowId?: number): DriverError {
  return new DriverError("capture_failed", `${what} came back without pixels (empty or fully transparent)`, {
    ...(windowId !== undefined ? { window_id: windowId } : {}),
    hint: "the window server shows this process no pixels of it: a minimized window, one on another Space, " +
      "or one it hides without Screen Recording; restore it, check check_permissions, or use its accessibility tree",
  });
}

/** Screen facilities of the macOS back end. */
export class DarwinScreen implements ScreenBackend {
  readonly #run: CommandRunner;
  readonly #hasTool: () => boolean;

  constructor(
    readonly ctx: DarwinContext,
    options: { run?: CommandRunner; hasScreencapture?: () => boolean } = {},
  ) {
    this.#run = options.run ?? runCommand;
    this.#hasTool = options.hasScreencapture ?? (() => {
      try {
        return Deno.statSync(SCREENCAPTURE).isFile;
      } catch {
        return false;
      }
    });
  }

  /** The capture route of this Mac (see {@linkcode captureRoute}). */
  route(): "coregraphics" | "screencapture" | null {
    return captureRoute(this.ctx, this.#hasTool());
  }

  /** Every active display, the main one first. */
  displays(): Promise<DisplayInfo[]> {
    return settled(() => {
      const { cg } = this.ctx.fw;
      const ids = new Uint32Array(MAX_DISPLAYS);
      const count = new Uint32Array(1);
      const status = cg.CGGetActiveDisplayList(MAX_DISPLAYS, ids, count);
      if (status !== 0) {
        throw new DriverError("display_unavailable", `CGGetActiveDisplayList failed with CGError ${status}`, {
          api: "CGGetActiveDisplayList",
          status,
          hint: "run the driver in a logged-in macOS desktop session",
        });
      }
      const main = cg.CGMainDisplayID();
      const displays = [...ids.subarray(0, count[0])].map((id) => this.#display(id, id === main));
      displays.sort((a, b) => Number(b.primary) - Number(a.primary));
      return displays;
    });
  }

  #display(id: number, primary: boolean): DisplayInfo {
    const { cg } = this.ctx.fw;
    const bounds = readCGRect(cg.CGDisplayBounds(id));
    using mode = this.ctx.cf.own(cg.CGDisplayCopyDisplayMode(id));
    const nativeWidth = mode ? Number(cg.CGDisplayModeGetPixelWidth(mode.ref)) : bounds.width;
    const nativeHeight = mode ? Number(cg.CGDisplayModeGetPixelHeight(mode.ref)) : bounds.height;
    return {
      id: String(id),
      name: cg.CGDisplayIsBuiltin(id) ? "Built-in Display" : `Display ${id}`,
      primary,
      bounds,
      nativeWidth,
      nativeHeight,
      scaleFactor: bounds.width > 0 ? nativeWidth / bounds.width : 1,
      refreshRateHz: mode ? cg.CGDisplayModeGetRefreshRate(mode.ref) : 0,
    };
  }

  /**
   * ffmpeg's AVFoundation grabber for the main display ("Capture screen 0", by name: its
   * device index moves with the number of cameras), at the display's native pixels.
   *
   * @throws {DriverError} `permission_denied` without Screen Recording (ffmpeg would record black).
   */
  async recordingSource(options: { frameRate: number; drawCursor: boolean }): Promise<ScreenRecordingSource> {
    const main = (await this.displays()).find((d) => d.primary);
    if (!main) throw new DriverError("display_unavailable", "No main display to record", {});
    requireScreenCapture(this.ctx, "Recording the screen");
    const width = main.nativeWidth - (main.nativeWidth % 2);
    const height = main.nativeHeight - (main.nativeHeight % 2);
    return {
      ffmpegInput: [
        "-f",
        "avfoundation",
        "-framerate",
        String(options.frameRate),
        "-capture_cursor",
        options.drawCursor ? "1" : "0",
        "-i",
        "Capture screen 0:none",
      ],
      width,
      height,
    };
  }

  /** Where the pointer is (a null-source event's location: global points, origin top-left). */
  cursorPosition(): Promise<CursorPosition> {
    return settled(() => {
      using event = this.ctx.cf.ownOrThrow(this.ctx.fw.cg.CGEventCreate(null), "CGEventCreate");
      const { x, y } = readCGPoint(this.ctx.fw.cg.CGEventGetLocation(event.ref));
      return { x, y, source: "CGEventGetLocation" };
    });
  }

  /**
   * Captures a display ("primary" or a display id) at its native pixel size.
   *
   * @throws {DriverError} `permission_denied` without Screen Recording, `unsupported_platform`
   *   where the OS removed the capture API, `display_unavailable` for an unknown display.
   */
  async captureDisplay(displayId: string): Promise<RawImage> {
    const displays = await this.displays();
    const display = displayId === "primary"
      ? displays.find((d) => d.primary)
      : displays.find((d) => d.id === displayId);
    if (!display) {
      throw new DriverError("display_unavailable", `No display ${JSON.stringify(displayId)}`, {
        displays: displays.map((d) => d.id),
        hint: "call get_screen_size for the display ids",
      });
    }
    requireScreenCapture(this.ctx, "Capturing the screen");
    const route = this.route();
    if (route === null) throw captureRemoved("Display capture");
    if (route === "screencapture") {
      const pixels = await screencapture(this.#run, { display: displays.indexOf(display) + 1 });
      if (emptyImage(pixels)) throw noPixels(`The capture of display ${display.id}`);
      return pixels;
    }
    using image = this.ctx.cf.own(this.ctx.fw.cg.CGDisplayCreateImage!(Number(display.id)));
    if (!image) {
      throw new DriverError(
        "capture_failed",
        `CGDisplayCreateImage returned no image of display ${display.id}`,
        {},
      );
    }
    const pixels = this.#pixels(image.ref);
    if (pixels === null || emptyImage(pixels)) throw noPixels(`The capture of display ${display.id}`);
    return pixels;
  }

  /**
   * Captures one window (its frame, without the shadow) at native resolution, even when
   * other windows cover it.
   *
   * @throws {DriverError} `window_stale` for a window that is gone, `permission_denied`,
   *   `unsupported_platform` as for {@linkcode captureDisplay}.
   */
  async captureWindow(windowId: number): Promise<{ image: RawImage; bounds: Rect }> {
    const row = requireWindow(this.ctx, windowId);
    requireScreenCapture(this.ctx, "Capturing a window");
    const route = this.route();
    if (route === null) throw captureRemoved("Window capture");
    if (route === "screencapture") {
      const pixels = await screencapture(this.#run, { window: windowId });
      if (emptyImage(pixels)) throw noPixels(`The capture of window ${windowId}`, windowId);
      return { image: pixels, bounds: row.bounds };
    }
    using image = this.ctx.cf.own(this.ctx.fw.cg.CGWindowListCreateImage!(
      CG_RECT_NULL,
      CGWindowListOption.IncludingWindow,
      windowId,
      CGWindowImageOption.BoundsIgnoreFraming | CGWindowImageOption.BestResolution,
    ));
    if (!image) {
      throw new DriverError(
        "capture_failed",
        `CGWindowListCreateImage returned no image of window ${windowId}`,
        {
          window_id: windowId,
          hint:
            "a minimized window or one on another Space has no pixels; restore it or use its accessibility tree",
        },
      );
    }
    const pixels = this.#pixels(image.ref);
    if (pixels === null || emptyImage(pixels)) throw noPixels(`The capture of window ${windowId}`, windowId);
    return { image: pixels, bounds: row.bounds };
  }

  /** The RGBA pixels of a CGImage (its data provider's bytes, copied once); null for a 0x0 image. */
  #pixels(image: CFRef): RawImage | null {
    const { cg } = this.ctx.fw;
    if (Number(cg.CGImageGetWidth(image)) === 0 || Number(cg.CGImageGetHeight(image)) === 0) return null;
    const provider = cg.CGImageGetDataProvider(image);
    using data = this.ctx.cf.ownOrThrow(
      provider && cg.CGDataProviderCopyData(provider),
      "CGDataProviderCopyData",
    );
    const bytes = this.ctx.cf.toBytes(data.ref) ?? new Uint8Array(0);
    return toRgba(bytes, {
      width: Number(cg.CGImageGetWidth(image)),
      height: Number(cg.CGImageGetHeight(image)),
      bytesPerRow: Number(cg.CGImageGetBytesPerRow(image)),
      bitsPerPixel: Number(cg.CGImageGetBitsPerPixel(image)),
      bitsPerComponent: Number(cg.CGImageGetBitsPerComponent(image)),
      bitmapInfo: cg.CGImageGetBitmapInfo(image),
    });
  }
}
