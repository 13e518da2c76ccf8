/**
 * Input on a wlroots session. The virtual pointer and keyboard act on the seat, so pixel and
 * key input lands where the compositor's focus and pointer are: there is no private background
 * device. {@linkcode WaylandInput.backgroundAvailable} says so, and the core refuses background
 * pixel and key requests (`background_unavailable`, nothing sent) while element actions go
 * through AT-SPI in the background as on X11. Foreground input is a transaction: focus the
 * target, confirm from the compositor's state that it has the focus, act, give the previous
 * window its focus back. The pointer stays where the input left it: no Wayland client can read
 * where it was before.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Point } from "../../ports/geometry.ts";
import type {
  DesktopObservation,
  InputBackend,
  InputChannel,
  OwnedPointer,
  RawKeyboard,
  RawPointer,
  Toolkit,
} from "../../ports/input.ts";
import { detectToolkit } from "../linux/x11/input/toolkit.ts";
import type { WaylandDisplay } from "./display.ts";
import { VirtualKeyboard, VirtualPointer } from "./virtual_input.ts";
import type { WaylandWindows } from "./windows.ts";

function noBackground(what: string): DriverError {
  return new DriverError(
    "background_unavailable",
    `A Wayland compositor sends ${what} input to the seat's focus and pointer: there is no private ` +
      "background device, so nothing was sent",
    {
      effect: "refused",
      escalation: { recommended: "foreground", reason: "wayland_seat_input" },
      suggestion: 'Retry this action with delivery_mode:"foreground", or act on an element_token.',
      hint:
        'retry with delivery_mode "foreground", or use an element action (AT-SPI works in the background)',
    },
  );
}

/** The input facility. */
export class WaylandInput implements InputBackend {
  readonly pointerDevice: VirtualPointer;
  readonly keyboardDevice: VirtualKeyboard;
  readonly #toolkits = new Map<number, Promise<Toolkit>>();

  /**
   * @param seatKeyboard The seat's keyboard where the compositor offers no virtual keyboard but
   *   another route (GNOME's RemoteDesktop); the virtual keyboard otherwise.
   */
  constructor(
    readonly display: WaylandDisplay,
    readonly windows: WaylandWindows,
    readonly seatKeyboard: (() => Promise<RawKeyboard>) | null = null,
  ) {
    this.pointerDevice = new VirtualPointer(display);
    this.keyboardDevice = new VirtualKeyboard(display);
  }

  backgroundAvailable(): Promise<boolean> {
    return Promise.resolve(false);
  }

  pointer(channel: InputChannel): Promise<RawPointer> {
    if (channel === "background") return Promise.reject(noBackground("pointer"));
    return Promise.resolve(this.pointerDevice);
  }

  extraPointer(): Promise<OwnedPointer> {
    return Promise.reject(noBackground("pointer"));
  }

  keyboard(channel: InputChannel): Promise<RawKeyboard> {
    if (channel === "background") return Promise.reject(noBackground("key"));
    return this.seatKeyboard ? this.seatKeyboard() : Promise.resolve(this.keyboardDevice);
  }

  withBackgroundKeyboard<T>(): Promise<T> {
    return Promise.reject(noBackground("key"));
  }

  /**
   * @throws {DriverError} `foreground_unavailable` when the compositor does not confirm the focus
   *   (nothing was sent).
   */
  async withForeground<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    let priorActive: number | null;
    try {
      ({ priorActive } = await this.windows.activate(windowId));
    } catch (error) {
      if (error instanceof DriverError && error.code === "foreground_unavailable") {
        throw new DriverError("foreground_unavailable", `${error.message}; no input was sent`, {
          ...error.data,
          window_id: windowId,
        });
      }
      throw error;
    }
    try {
      return await body();
    } finally {
      if (priorActive !== null && priorActive !== windowId) {
        await this.windows.activate(priorActive).catch(() => {});
      }
    }
  }

  /** True when the compositor's layout has the window visible at `point` with nothing above it. */
  async windowOnTopAt(windowId: number, point: Point): Promise<boolean> {
    const windows = await this.windows.native();
    const inside = (b: { x: number; y: number; width: number; height: number }) =>
      point.x >= b.x && point.y >= b.y && point.x < b.x + b.width && point.y < b.y + b.height;
    const target = windows.find((w) => w.windowId === windowId);
    if (!target?.geometryKnown || !target.isOnScreen || !inside(target.bounds)) return false;
    return !windows.some((w) =>
      w.windowId !== windowId && w.isOnScreen && (w.zIndex ?? -1) > (target.zIndex ?? -1) && inside(w.bounds)
    );
  }

  toolkit(pid: number): Promise<Toolkit> {
    let known = this.#toolkits.get(pid);
    if (!known) {
      known = detectToolkit(pid);
      this.#toolkits.set(pid, known);
    }
    return known;
  }

  /**
   * What input may disturb. The pointer is where this driver last moved it (origin before): a
   * Wayland client cannot read the real position.
   */
  async observe(): Promise<DesktopObservation> {
    const windows = await this.windows.native().catch((error) => {
      // A compositor with no window list (GNOME) has nothing to observe: no window, no stacking.
      if (error instanceof DriverError && error.code === "unsupported_platform") return [];
      throw error;
    });
    const focused = windows.find((w) => w.focused)?.windowId ?? null;
    return {
      activeWindow: focused,
      focusWindow: focused,
      pointer: this.pointerDevice.last() ?? { x: 0, y: 0 },
      stacking: windows.map((w) => w.windowId),
    };
  }

  async releaseAll(): Promise<void> {
    await this.keyboardDevice.releaseAll();
    await this.pointerDevice.releaseAll();
  }

  /** Resolves once the compositor has processed everything sent (it has forwarded it to the app). */
  async appSettled(): Promise<void> {
    await (await this.display.connected()).wire.roundtrip();
  }
}
