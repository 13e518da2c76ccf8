/**
 * One back end for a Wayland session with XWayland: native windows (ids >= 2^32) go to the
 * Wayland back end and XWayland windows (32-bit X ids) to the X11 back end on XWayland's
 * DISPLAY; `list_windows` shows both, each with its `windowSystem`. The desktop capture, the
 * seat's input devices, the clipboard and app launch are the Wayland session's (XWayland's root
 * window captures black, and the compositor forwards seat input to XWayland windows too).
 *
 * @module
 */
import type { AccessibilityBackend } from "../../ports/accessibility.ts";
import type { Backend } from "../../ports/backend.ts";
import type { Point } from "../../ports/geometry.ts";
import type { HealthCheck } from "../../ports/health.ts";
import type { InputBackend } from "../../ports/input.ts";
import type { ScreenBackend } from "../../ports/screen.ts";
import type { WindowBackend, WindowInfo } from "../../ports/windows.ts";
import { isNativeWindowId } from "./windows.ts";

/** The back end of one window id. */
function owner(wayland: Backend, x11: Backend, windowId: number): Backend {
  return isNativeWindowId(windowId) ? wayland : x11;
}

/** `base` with some methods replaced (the rest bound to `base`). */
function override<T extends object>(base: T, replaced: Partial<T>): T {
  return new Proxy(base, {
    get(target, property) {
      if (property in replaced) return (replaced as Record<PropertyKey, unknown>)[property];
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Composes the two back ends of a Wayland session with XWayland. */
export function composeWithX11(wayland: Backend, x11: Backend): Backend {
  const route = (windowId: number) => owner(wayland, x11, windowId);
  const x11Windows = async (): Promise<WindowInfo[]> =>
    (await x11.windows.list()).map((w) => ({ ...w, windowSystem: "x11" as const }));

  const windows: WindowBackend = {
    async list() {
      const [xwayland, native] = await Promise.all([x11Windows(), wayland.windows.list()]);
      return [...xwayland, ...native];
    },
    async get(windowId, options) {
      const window = await route(windowId).windows.get(windowId, options);
      return window && !isNativeWindowId(windowId) ? { ...window, windowSystem: "x11" } : window;
    },
    async active() {
      return await wayland.windows.active() ?? await x11.windows.active();
    },
    activate: (windowId) => route(windowId).windows.activate(windowId),
    setFrame: (windowId, frame) => route(windowId).windows.setFrame(windowId, frame),
  };
  const screen = override<ScreenBackend>(wayland.screen, {
    captureWindow: (windowId, options) => route(windowId).screen.captureWindow(windowId, options),
  });
  const accessibility = override<AccessibilityBackend>(wayland.accessibility, {
    tree: (pid, windowId, options, signal) =>
      route(windowId).accessibility.tree(pid, windowId, options, signal),
  });
  const input = override<InputBackend>(wayland.input, {
    withForeground: (windowId, body) => route(windowId).input.withForeground(windowId, body),
    windowOnTopAt: (windowId: number, point: Point) => route(windowId).input.windowOnTopAt(windowId, point),
  });

  return {
    os: "linux",
    description: `${wayland.description} with XWayland (${x11.description})`,
    screen,
    windows,
    apps: wayland.apps,
    accessibility,
    clipboard: wayland.clipboard,
    input,
    perception: wayland.perception,
    agentCursor: wayland.agentCursor,
    system: wayland.system,
    permissions: () => wayland.permissions(),
    async health(names: readonly string[]): Promise<HealthCheck[]> {
      const [native, xwayland] = await Promise.all([
        wayland.health(names),
        names.includes("display") ? x11.health(["display"]) : Promise.resolve([]),
      ]);
      // XWayland's display is part of the session's display check (health_report knows no other name).
      const x = xwayland[0];
      return native.map((check) =>
        check.name === "display" && x
          ? {
            ...check,
            message: `${check.message}; XWayland: ${x.message}`,
            data: { ...check.data, xwayland: { status: x.status, ...x.data } },
          }
          : check
      );
    },
    async close() {
      await Promise.allSettled([wayland.close(), x11.close()]);
    },
  };
}
