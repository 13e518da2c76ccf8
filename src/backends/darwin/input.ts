/**
 * The macOS {@linkcode InputBackend}. Background input is posted to one process
 * (`events.ts`: SkyLight's `SLEventPostToPid`, else `CGEventPostToPid`; the user's
 * pointer and frontmost app are untouched); global input
 * is posted at the HID tap inside a foreground transaction: activate the target,
 * confirm it is frontmost, act, then restore the previous app and the pointer.
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
import type { AxClient } from "./ax_client.ts";
import type { DarwinContext } from "./context.ts";
import { accessibilityTrusted, grantee } from "./tcc.ts";
import { NORMAL_LAYER, readWindow, readWindowList, requireWindow, type WindowRow } from "./window_list.ts";
import type { DarwinWindows } from "./windows.ts";
import { appToolkit } from "./toolkit.ts";
import { activateApp, COOPERATIVE_ACTIVATION_SINCE, frontmostPid } from "./workspace.ts";
import { macOSMajor } from "./os_version.ts";
import { booleanOf } from "./ax_client.ts";
import { EventPoster, type EventRoute } from "./input/events.ts";
import { DarwinKeyboard } from "./input/keyboard.ts";
import { DarwinPointer, type PointerRouting } from "./input/pointer.ts";
import { settled } from "./settled.ts";

/** How long a foreground activation may take to be confirmed. */
const FOREGROUND_CONFIRM_MS = 1000;

function contains(row: WindowRow, point: Point): boolean {
  const { x, y, width, height } = row.bounds;
  return point.x >= x && point.y >= y && point.x < x + width && point.y < y + height;
}

/** Input on macOS. */
export class DarwinInput implements InputBackend {
  readonly #ctx: DarwinContext;
  readonly #ax: AxClient;
  readonly #windows: DarwinWindows;
  readonly #poster: EventPoster;
  readonly #keyboards: { global: DarwinKeyboard; background: DarwinKeyboard };
  readonly #pointers: { global: DarwinPointer; background: DarwinPointer };
  readonly #extra = new Set<DarwinPointer>();
  /** The window background keys go to, while withBackgroundKeyboard runs. */
  #keyTarget: { pid: number; windowId: number } | null = null;

  constructor(ctx: DarwinContext, ax: AxClient, windows: DarwinWindows) {
    this.#ctx = ctx;
    this.#ax = ax;
    this.#windows = windows;
    this.#poster = new EventPoster(ctx);
    this.#keyboards = {
      global: new DarwinKeyboard(this.#poster, () => ({ kind: "global" })),
      background: new DarwinKeyboard(this.#poster, () => this.#keyRoute()),
    };
    this.#pointers = {
      global: new DarwinPointer(this.#poster, this.#routing("global"), "global"),
      background: new DarwinPointer(this.#poster, this.#routing("background"), "background"),
    };
  }

  #cursor(): Point {
    using event = this.#ctx.cf.ownOrThrow(this.#ctx.fw.cg.CGEventCreate(null), "CGEventCreate");
    const bytes = this.#ctx.fw.cg.CGEventGetLocation(event.ref);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    return { x: view.getFloat64(0, true), y: view.getFloat64(8, true) };
  }

  #routing(channel: InputChannel): PointerRouting {
    const keyboard = this.#keyboards[channel];
    return {
      routeAt: (point) => channel === "global" ? { kind: "global" } : this.#backgroundRouteAt(point),
      initial: () => this.#cursor(),
      flags: () => keyboard.flags(),
    };
  }

  /** The process and window a background event at `point` goes to: the topmost window there. */
  #backgroundRouteAt(point: Point): EventRoute | null {
    const top = this.#topmostAt(point);
    return top
      ? { kind: "pid", pid: top.pid, windowId: top.id, origin: { x: top.bounds.x, y: top.bounds.y } }
      : null;
  }

  #topmostAt(point: Point): WindowRow | null {
    // Menus, the Dock and the menu bar (layers above 0) cover documents too; the desktop (below 0) does not.
    return readWindowList(this.#ctx).find((row) =>
      row.onScreen && row.layer >= NORMAL_LAYER && row.alpha > 0 && contains(row, point)
    ) ?? null;
  }

  #keyRoute(): EventRoute {
    if (!this.#keyTarget) {
      throw new DriverError(
        "background_unavailable",
        "The background keyboard has no target window; nothing was sent",
        {
          hint: "background keys go to a window named by the action (pid and window_id)",
        },
      );
    }
    return { kind: "pid", pid: this.#keyTarget.pid, windowId: this.#keyTarget.windowId };
  }

  /** Background input needs the Accessibility grant (it covers posting events). */
  backgroundAvailable(): Promise<boolean> {
    return settled(() => {
      const preflight = this.#ctx.fw.cg.CGPreflightPostEventAccess;
      return preflight ? preflight() : accessibilityTrusted(this.#ctx);
    });
  }

  /** The channel's pointer. */
  pointer(channel: InputChannel): Promise<RawPointer> {
    return Promise.resolve(this.#pointers[channel]);
  }

  /** One more background pointer (macOS posts per process, so any number coexist). */
  extraPointer(): Promise<OwnedPointer> {
    const pointer = new DarwinPointer(this.#poster, this.#routing("background"), "background");
    this.#extra.add(pointer);
    const close = pointer.close.bind(pointer);
    pointer.close = async () => {
      await close();
      this.#extra.delete(pointer);
    };
    return Promise.resolve(pointer);
  }

  /** The channel's keyboard. */
  keyboard(channel: InputChannel): Promise<RawKeyboard> {
    return Promise.resolve(this.#keyboards[channel]);
  }

  /**
   * Points the background keyboard at a window's process for `body`. Keys go to the
   * app's key window, which is its main window: a window that is not main is refused,
   * since making it main (AXMain) reorders its app's windows, which a background action
   * must not do.
   *
   * @throws {DriverError} `window_stale` for a window that is gone, `background_unavailable`
   *   for a window that is not its app's main window (nothing sent).
   */
  async withBackgroundKeyboard<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    const row = requireWindow(this.#ctx, windowId);
    if (accessibilityTrusted(this.#ctx)) {
      using axWindow = await this.#ax.findWindow(row.pid, windowId, { bounds: row.bounds, title: row.title });
      const main = axWindow ? booleanOf(await this.#ax.read(axWindow.ref, "AXMain")) : null;
      if (main === false) {
        throw new DriverError(
          "background_unavailable",
          `Window ${windowId} is not the main window of pid ${row.pid}: its keys would go to another window, ` +
            "and making it main would reorder the app's windows; nothing was sent",
          {
            window_id: windowId,
            effect: "refused",
            escalation: { recommended: "foreground", reason: "not_main_window" },
            hint: 'retry with delivery_mode "foreground", or act on the element through accessibility',
          },
        );
      }
    }
    const prior = this.#keyTarget;
    this.#keyTarget = { pid: row.pid, windowId };
    try {
      return await body();
    } finally {
      this.#keyTarget = prior;
    }
  }

  /**
   * Activates the window's app and raises the window, confirms it is in front, runs
   * `body`, then reactivates the previous app and puts the pointer back.
   *
   * @throws {DriverError} `foreground_unavailable` when the activation is not confirmed (nothing sent).
   */
  async withForeground<T>(windowId: number, body: () => Promise<T>): Promise<T> {
    const row = requireWindow(this.#ctx, windowId);
    const priorPid = frontmostPid(this.#ctx);
    const priorPointer = this.#cursor();
    const isTarget = async () =>
      frontmostPid(this.#ctx) === row.pid && (await this.#windows.active()) === windowId;
    if (!(await isTarget()) && !accessibilityTrusted(this.#ctx) && this.#cooperative()) {
      throw new DriverError(
        "foreground_unavailable",
        `macOS ${macOSMajor(this.#ctx)} ignores activation requests from a background process, and without ` +
          `the Accessibility grant nothing else can bring window ${windowId} to the front; no input was sent`,
        {
          window_id: windowId,
          permission: "accessibility",
          hint: `grant Accessibility to ${
            grantee(this.#ctx)
          } (AXFrontmost is the activation macOS 14+ honours)`,
        },
      );
    }
    if (!(await isTarget())) {
      await this.#windows.activate(windowId);
      const deadline = Date.now() + FOREGROUND_CONFIRM_MS;
      while (!(await isTarget()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      if (!(await isTarget())) {
        throw new DriverError(
          "foreground_unavailable",
          `macOS did not bring window ${windowId} of pid ${row.pid} to the front; no input was sent`,
          {
            window_id: windowId,
            hint:
              "macOS 14+ lets an app decline activation; grant Accessibility, or bring it to front yourself",
          },
        );
      }
    }
    try {
      return await body();
    } finally {
      await this.releaseAll();
      this.#poster.warp(priorPointer);
      if (priorPid !== null && priorPid !== row.pid) {
        if (accessibilityTrusted(this.#ctx)) {
          using app = this.#ax.application(priorPid);
          await this.#ax.set(app.ref, "AXFrontmost", this.#ctx.cf.boolean(true)).catch(() => false);
        }
        if (frontmostPid(this.#ctx) !== priorPid) activateApp(this.#ctx, priorPid);
      }
    }
  }

  #cooperative(): boolean {
    return (macOSMajor(this.#ctx) ?? 0) >= COOPERATIVE_ACTIVATION_SINCE;
  }

  /** True when the window is the topmost window at `point` (nothing covers it there). */
  windowOnTopAt(windowId: number, point: Point): Promise<boolean> {
    return settled(() => {
      return this.#topmostAt(point)?.id === windowId;
    });
  }

  /**
   * The app's toolkit: "chromium" for Chromium and Electron apps (their renderers drop
   * posted background input), else "unknown" (AppKit and others).
   */
  toolkit(pid: number): Promise<Toolkit> {
    return settled(() => {
      return appToolkit(this.#ctx, pid);
    });
  }

  /** The active window, the user's pointer and the stacking (bottom to top). */
  async observe(): Promise<DesktopObservation> {
    const active = await this.#windows.active();
    const stacking = readWindowList(this.#ctx).filter((row) => row.layer === NORMAL_LAYER && row.onScreen)
      .map((row) => row.id).reverse();
    return { activeWindow: active, focusWindow: active, pointer: this.#cursor(), stacking };
  }

  /**
   * Releases every button and key held on the channel pointers and keyboards. Extra
   * pointers keep theirs: they hold buttons across calls (mouse_button_down) until closed.
   */
  async releaseAll(): Promise<void> {
    for (const pointer of [this.#pointers.background, this.#pointers.global]) {
      await pointer.releaseAll().catch(() => {});
    }
    for (const keyboard of [this.#keyboards.background, this.#keyboards.global]) {
      await keyboard.releaseAll().catch(() => {});
    }
  }

  /**
   * Waits until the window's app answered one accessibility message (it handles them on
   * the same run loop as events), bounded by the messaging timeout.
   */
  async appSettled(windowId: number): Promise<void> {
    const row = readWindow(this.#ctx, windowId);
    if (!row || !accessibilityTrusted(this.#ctx)) return;
    using app = this.#ax.application(row.pid);
    await this.#ax.read(app.ref, "AXRole").catch(() => null);
  }

  /** Releases held input, extra pointers and the event sources. */
  async close(): Promise<void> {
    await this.releaseAll();
    for (const pointer of [...this.#extra]) await pointer.close();
    this.#poster.close();
  }
}
