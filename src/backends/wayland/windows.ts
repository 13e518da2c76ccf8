/**
 * Native Wayland windows: the foreign-toplevel list joined with sway's layout tree (pid,
 * geometry, focus, visibility) where sway's IPC exists. Window ids are `2^32 + n` (sway's
 * container id, or the toplevel's index on other compositors), above every 32-bit X window id,
 * so one list can hold XWayland windows (from the X11 back end) and native ones. XWayland
 * windows in sway's tree are left to the X11 back end.
 *
 * Without sway's IPC a wlroots compositor gives no geometry and no pid: such windows are listed
 * with empty bounds, `pid` null and `isOnScreen` false, and capture and pointer input refuse them.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { WindowBackend, WindowInfo, WindowLookup } from "../../ports/windows.ts";
import type { SwayIpc, SwayWindow } from "./sway_ipc.ts";
import type { Toplevel, ToplevelList } from "./toplevels.ts";

/** The first native window id. */
export const NATIVE_WINDOW_BASE = 2 ** 32;
/** Server-created object ids start here (the toplevel handles). */
const SERVER_ID_BASE = 0xff000000;

/** True for an id of a native Wayland window (not an X window id). */
export function isNativeWindowId(windowId: number): boolean {
  return windowId >= NATIVE_WINDOW_BASE;
}

/** One native window with what the back end needs beyond {@linkcode WindowInfo}. */
export interface NativeWindow extends WindowInfo {
  /** The foreign-toplevel handle, when matched. */
  handle: number | null;
  /** sway's container id, when sway's IPC exists. */
  conId: number | null;
  focused: boolean;
  floating: boolean;
  /** Whether the compositor's layout says where the window is (sway's IPC). */
  geometryKnown: boolean;
}

const NO_BOUNDS: Rect = { x: 0, y: 0, width: 0, height: 0 };

/** The native windows of the session. */
export class WaylandWindows implements WindowBackend {
  constructor(readonly toplevels: ToplevelList, readonly sway: SwayIpc | null) {}

  /**
   * Every native window, bottom of the stack first.
   *
   * @throws {DriverError} `unsupported_platform` when the compositor lists no windows to a client
   *   (GNOME, KDE): an empty list would claim there are none.
   */
  async native(): Promise<NativeWindow[]> {
    if (!this.sway && !(await this.toplevels.available())) {
      throw new DriverError(
        "unsupported_platform",
        "This Wayland compositor lists no windows to a client (no zwlr_foreign_toplevel_manager_v1, no sway IPC)",
        {
          hint:
            "GNOME's window list needs a shell extension and KDE's a KWin script, which this driver does not " +
            "ship yet; element actions by pid still work through accessibility",
        },
      );
    }
    const [toplevels, layout] = await Promise.all([
      this.toplevels.list(),
      this.sway ? this.sway.windows() : Promise.resolve(null),
    ]);
    if (!layout) return toplevels.map((t, i) => fromToplevel(t, i));
    const unmatched = [...toplevels];
    return layout.filter((w) => w.shell !== "xwayland").map((w) => {
      const index = unmatched.findIndex((t) => t.appId === (w.appId ?? "") && t.title === w.title);
      const toplevel = index >= 0 ? unmatched.splice(index, 1)[0] : null;
      return fromSway(w, toplevel);
    });
  }

  /** Top-level windows, bottom of the stack first. */
  async list(): Promise<WindowInfo[]> {
    return (await this.native()).map(publicInfo);
  }

  /** One native window with its handle, or null. */
  async find(windowId: number): Promise<NativeWindow | null> {
    return (await this.native()).find((w) => w.windowId === windowId) ?? null;
  }

  async get(windowId: number, _options?: WindowLookup): Promise<WindowInfo | null> {
    const window = await this.find(windowId);
    return window ? publicInfo(window) : null;
  }

  /** The window's bounds, or null when gone or unknown (for accessibility frames). */
  async bounds(windowId: number): Promise<Rect | null> {
    const window = await this.find(windowId);
    return window?.geometryKnown ? window.bounds : null;
  }

  async active(): Promise<number | null> {
    return (await this.native()).find((w) => w.focused)?.windowId ?? null;
  }

  /**
   * Gives the window the seat's focus (sway's `focus` command, else foreign-toplevel `activate`)
   * and confirms it from the compositor's own state.
   *
   * @throws {DriverError} `window_target_not_found` for an unknown window; `foreground_unavailable`
   *   when the compositor did not focus it.
   */
  async activate(windowId: number): Promise<{ priorActive: number | null }> {
    const windows = await this.native();
    const window = windows.find((w) => w.windowId === windowId);
    if (!window) throw new DriverError("window_target_not_found", `No native Wayland window ${windowId}`);
    const priorActive = windows.find((w) => w.focused)?.windowId ?? null;
    if (window.focused) return { priorActive };
    if (this.sway && window.conId !== null) await this.sway.command(`[con_id=${window.conId}] focus`);
    else if (window.handle !== null) await this.toplevels.activate(window.handle);
    else {throw new DriverError(
        "foreground_unavailable",
        `The compositor offers no way to activate window ${windowId}`,
      );}
    const after = await this.find(windowId);
    if (!after?.focused) {
      throw new DriverError(
        "foreground_unavailable",
        `The compositor did not give window ${windowId} the focus`,
        {
          hint: "another window may hold the focus (a modal dialog, a fullscreen window)",
        },
      );
    }
    return { priorActive };
  }

  /**
   * Moves and resizes a window: sway floats it first (a tiled window's frame is the layout's).
   *
   * @throws {DriverError} `unsupported_platform` without sway's IPC.
   */
  async setFrame(windowId: number, frame: Rect): Promise<void> {
    const window = await this.find(windowId);
    if (!window) throw new DriverError("window_target_not_found", `No native Wayland window ${windowId}`);
    if (!this.sway || window.conId === null) {
      throw new DriverError(
        "unsupported_platform",
        "This compositor lets no client move or resize another's window (no sway IPC)",
      );
    }
    const { x, y, width, height } = frame;
    await this.sway.command(
      `[con_id=${window.conId}] floating enable, resize set width ${Math.round(width)} px height ` +
        `${Math.round(height)} px, move absolute position ${Math.round(x)} ${Math.round(y)}`,
    );
  }
}

function publicInfo(w: NativeWindow): WindowInfo {
  return {
    windowId: w.windowId,
    pid: w.pid,
    appName: w.appName,
    title: w.title,
    bounds: w.bounds,
    isOnScreen: w.isOnScreen,
    zIndex: w.zIndex,
    windowSystem: "wayland",
  };
}

function fromSway(w: SwayWindow, toplevel: Toplevel | null): NativeWindow {
  return {
    windowId: NATIVE_WINDOW_BASE + w.conId,
    pid: w.pid,
    appName: w.appId ?? toplevel?.appId ?? "",
    title: w.title,
    bounds: w.rect,
    isOnScreen: w.visible,
    zIndex: w.order,
    handle: toplevel?.handle ?? null,
    conId: w.conId,
    focused: w.focused,
    floating: w.floating,
    geometryKnown: true,
  };
}

function fromToplevel(t: Toplevel, index: number): NativeWindow {
  return {
    windowId: NATIVE_WINDOW_BASE + 1 + (t.handle >= SERVER_ID_BASE ? t.handle - SERVER_ID_BASE : index),
    pid: null,
    appName: t.appId,
    title: t.title,
    bounds: NO_BOUNDS,
    isOnScreen: false,
    zIndex: null,
    handle: t.handle,
    conId: null,
    focused: t.activated,
    floating: false,
    geometryKnown: false,
  };
}
