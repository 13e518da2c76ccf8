/**
 * The macOS {@linkcode WindowBackend}: layer-0 windows of the window server's list
 * (document windows, including minimized and other-Space ones), the active window,
 * activation through Accessibility (AXFrontmost, AXMain, AXRaise) with NSRunningApplication
 * as the second route, and frames set through AXPosition/AXSize.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { Rect } from "../../ports/geometry.ts";
import type { WindowBackend, WindowInfo } from "../../ports/windows.ts";
import { type AxClient, textOf } from "./ax_client.ts";
import type { DarwinContext } from "./context.ts";
import { accessibilityTrusted } from "./tcc.ts";
import { NORMAL_LAYER, readWindow, readWindowList, requireWindow, type WindowRow } from "./window_list.ts";
import { activateApp, frontmostPid } from "./workspace.ts";
import { settled } from "./settled.ts";

/** How long activation may take to show in the window list. */
const ACTIVATION_CONFIRM_MS = 500;

/** Windows on macOS. */
export class DarwinWindows implements WindowBackend {
  constructor(readonly ctx: DarwinContext, readonly ax: AxClient) {}

  /**
   * Document windows (layer 0), bottom of the stack first. On-screen windows carry a
   * z-index (higher is nearer the front); minimized and other-Space ones carry null.
   * Titles the window server withholds (no Screen Recording access) are read from
   * each app's AX windows instead.
   */
  async list(): Promise<WindowInfo[]> {
    const rows = readWindowList(this.ctx).filter((row) => row.layer === NORMAL_LAYER);
    await this.#fillTitles(rows);
    const onScreen = rows.filter((row) => row.onScreen);
    return rows.map((row) => this.#info(row, row.onScreen ? onScreen.length - onScreen.indexOf(row) : null))
      .reverse();
  }

  /** One window (any layer), or null when it no longer exists. */
  async get(windowId: number): Promise<WindowInfo | null> {
    const row = readWindow(this.ctx, windowId);
    if (!row) return null;
    await this.#fillTitles([row]);
    let zIndex: number | null = null;
    if (row.onScreen) {
      const stack = readWindowList(this.ctx).filter((r) => r.layer === NORMAL_LAYER && r.onScreen);
      const position = stack.findIndex((r) => r.id === windowId);
      zIndex = position < 0 ? null : stack.length - position;
    }
    return this.#info(row, zIndex);
  }

  #info(row: WindowRow, zIndex: number | null): WindowInfo {
    return {
      windowId: row.id,
      pid: row.pid,
      appName: row.ownerName,
      title: row.title ?? "",
      bounds: row.bounds,
      isOnScreen: row.onScreen,
      zIndex,
    };
  }

  async #fillTitles(rows: WindowRow[]): Promise<void> {
    const untitled = rows.filter((row) => row.title === null);
    if (!untitled.length || !accessibilityTrusted(this.ctx)) return;
    for (const row of untitled) {
      try {
        using axWindow = await this.ax.findWindow(row.pid, row.id, { bounds: row.bounds, title: null });
        if (axWindow) row.title = textOf(await this.ax.read(axWindow.ref, "AXTitle"));
      } catch {
        // An app that does not answer keeps its window untitled; the listing goes on.
      }
    }
  }

  /** The frontmost app's frontmost on-screen document window. */
  active(): Promise<number | null> {
    return settled(() => {
      const pid = frontmostPid(this.ctx);
      if (pid === null) return null;
      const row = readWindowList(this.ctx).find((r) =>
        r.pid === pid && r.layer === NORMAL_LAYER && r.onScreen
      );
      return row?.id ?? null;
    });
  }

  /**
   * Makes the window's app frontmost and the window its main, raised window, then waits
   * (up to 500 ms) for the window list to show it in front.
   *
   * @throws {DriverError} `window_stale` for a window that is gone.
   */
  async activate(windowId: number): Promise<{ priorActive: number | null }> {
    const row = this.#require(windowId);
    const priorActive = await this.active();
    const trusted = accessibilityTrusted(this.ctx);
    if (trusted) {
      using app = this.ax.application(row.pid);
      await this.ax.set(app.ref, "AXFrontmost", this.ctx.cf.boolean(true));
      using axWindow = await this.ax.findWindow(row.pid, windowId, { bounds: row.bounds, title: row.title });
      if (axWindow) {
        await this.ax.set(axWindow.ref, "AXMain", this.ctx.cf.boolean(true));
        await this.ax.perform(axWindow.ref, "AXRaise");
      }
    }
    const asked = frontmostPid(this.ctx) !== row.pid && activateApp(this.ctx, row.pid);
    // Nothing was asked (no Accessibility, and a macOS that ignores NSRunningApplication's request): no wait.
    if (!trusted && !asked) return { priorActive };
    const deadline = Date.now() + ACTIVATION_CONFIRM_MS;
    while ((await this.active()) !== windowId && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { priorActive };
  }

  /**
   * Moves and resizes a window through AXPosition and AXSize; the caller reads the
   * result back (apps clamp sizes to their own limits).
   *
   * @throws {DriverError} `window_stale`, `permission_denied` (Accessibility),
   *   `delivery_failed` when the app does not let the window move or resize.
   */
  async setFrame(windowId: number, frame: Rect): Promise<void> {
    const row = this.#require(windowId);
    if (!accessibilityTrusted(this.ctx)) {
      throw new DriverError("permission_denied", "Moving a window needs the Accessibility permission", {
        hint: "call check_permissions for the exact System Settings pane",
      });
    }
    using axWindow = await this.ax.findWindow(row.pid, windowId, { bounds: row.bounds, title: row.title });
    if (!axWindow) {
      throw new DriverError(
        "window_target_not_found",
        `Window ${windowId} has no accessibility window to move`,
        {
          window_id: windowId,
          hint: "the app may not expose its windows to Accessibility; try bring_to_front first",
        },
      );
    }
    using position = this.ax.geometry({ point: { x: frame.x, y: frame.y } });
    using size = this.ax.geometry({ size: { width: frame.width, height: frame.height } });
    // Position, size, then position again: a resize that hits a screen edge can move the window.
    const moved = await this.ax.set(axWindow.ref, "AXPosition", position.ref);
    const resized = await this.ax.set(axWindow.ref, "AXSize", size.ref);
    if (moved) await this.ax.set(axWindow.ref, "AXPosition", position.ref);
    if (!moved && !resized) {
      throw new DriverError("delivery_failed", `Window ${windowId} refused both AXPosition and AXSize`, {
        window_id: windowId,
        hint: "the window may be full screen or fixed; leave full screen first",
      });
    }
  }

  #require(windowId: number): WindowRow {
    return requireWindow(this.ctx, windowId);
  }
}
