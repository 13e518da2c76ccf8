/**
 * health_report's platform checks in a Wayland session: which session and compositor (and
 * the globals found), the window list, accessibility (the Linux AT-SPI check), capture (timed)
 * and input (foreground only, and why). A failed probe is a `fail` check, never a throw.
 *
 * @module
 */
import { runHealthProbes } from "../../kernel/health_probes.ts";
import type { HealthCheck } from "../../ports/health.ts";
import type { AtspiAccessibility } from "../linux/accessibility.ts";
import { accessibilityCheck } from "../linux/health.ts";
import { type WaylandSession, WLROOTS_GLOBALS } from "./detect.ts";
import type { WaylandScreen } from "./screen.ts";
import type { WaylandWindows } from "./windows.ts";

/** What the checks read. */
export interface WaylandHealthDeps {
  session: WaylandSession;
  screen: WaylandScreen;
  windows: WaylandWindows;
  accessibility: Pick<AtspiAccessibility, "diagnose">;
}

type Probe = (deps: WaylandHealthDeps) => Promise<HealthCheck>;

const has = (deps: WaylandHealthDeps, iface: string) => deps.session.globals.some((g) => g.iface === iface);

const PROBES: Record<string, Probe> = {
  display: async (deps) => {
    const { session } = deps;
    const displays = await deps.screen.displays();
    const found = Object.keys(WLROOTS_GLOBALS).filter((iface) => has(deps, iface));
    return {
      name: "display",
      status: "pass",
      message: `Wayland ${session.display} (${
        session.compositorVersion ?? session.compositor
      }, ${session.family}; ${displays.length} output${
        displays.length === 1 ? "" : "s"
      }; found by ${session.reason})`,
      data: {
        session: "wayland",
        display: session.display,
        socket: session.socket,
        compositor: session.compositor,
        compositor_version: session.compositorVersion,
        family: session.family,
        sway_ipc: session.swaySocket,
        embedded: false,
        monitors: displays.length,
        driver_globals: found,
        globals: session.globals.map((g) => `${g.iface} v${g.version}`),
      },
    };
  },
  window_manager: async (deps) => {
    if (!has(deps, "zwlr_foreign_toplevel_manager_v1") && !deps.session.swaySocket) {
      return {
        name: "window_manager",
        status: "fail",
        message:
          `${deps.session.compositor} lists no windows to a client (no zwlr_foreign_toplevel_manager_v1)`,
        hint: "list_windows, window capture and pointer input need a wlroots compositor",
        data: { name: deps.session.compositor },
      };
    }
    const windows = await deps.windows.list();
    return {
      name: "window_manager",
      status: "pass",
      message:
        `${deps.session.compositor}: ${windows.length} native window${windows.length === 1 ? "" : "s"}` +
        (deps.session.swaySocket
          ? " (sway IPC gives pid and geometry)"
          : " (no pid or geometry without sway IPC)"),
      data: { name: deps.session.compositor, windows: windows.length },
    };
  },
  accessibility: (deps) => accessibilityCheck(deps),
  capture: async (deps) => {
    if (!has(deps, "zwlr_screencopy_manager_v1")) {
      return {
        name: "capture",
        status: "fail",
        message: `${deps.session.compositor} offers no zwlr_screencopy_manager_v1: no screenshots`,
        hint: deps.session.family === "gnome"
          ? "GNOME captures through org.gnome.Mutter.ScreenCast over PipeWire, which this driver does not speak yet"
          : "capture needs a wlroots compositor",
      };
    }
    const displays = await deps.screen.displays();
    const started = performance.now();
    const image = await deps.screen.captureDisplay(displays[0]?.id ?? "");
    const ms = Math.round(performance.now() - started);
    return {
      name: "capture",
      status: "pass",
      message: `screencopy ${image.width}x${image.height} in ${ms} ms`,
      data: { route: "zwlr_screencopy", width: image.width, height: image.height, ms },
    };
  },
  input: (deps) => {
    const pointer = has(deps, "zwlr_virtual_pointer_manager_v1");
    const keyboard = has(deps, "zwp_virtual_keyboard_manager_v1");
    const ok = pointer && keyboard;
    return Promise.resolve({
      name: "input",
      status: ok ? "pass" : "fail",
      message: ok
        ? "virtual pointer and keyboard: foreground only (the compositor's seat decides where input goes); " +
          "background pixel and key input is refused, element actions go through AT-SPI"
        : `${deps.session.compositor} offers no virtual ${pointer ? "keyboard" : "pointer"} to a client`,
      ...(ok ? {} : {
        hint: deps.session.family === "gnome"
          ? "keys go through org.gnome.Mutter.RemoteDesktop where its D-Bus API is reachable (desktop scope: to " +
            "the focused window); pointer input needs a ScreenCast stream over PipeWire, not implemented"
          : "pixel and key input needs zwlr_virtual_pointer_manager_v1 and zwp_virtual_keyboard_manager_v1",
      }),
      data: { virtual_pointer: pointer, virtual_keyboard: keyboard, background: false },
    });
  },
};

/** Runs the named checks (unknown names are ignored), in the order asked. */
export function waylandHealth(deps: WaylandHealthDeps, names: readonly string[]): Promise<HealthCheck[]> {
  return runHealthProbes(PROBES, deps, names);
}
