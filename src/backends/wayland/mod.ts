/**
 * The Wayland back end: native windows of a Wayland session through the compositor's own
 * protocols over the wire client (`wire/`): foreign-toplevel and sway's IPC for windows,
 * screencopy for capture, the virtual pointer and keyboard for foreground input, data-control
 * for the clipboard; AT-SPI, app launch and text recognition are the Linux ones, imported.
 * wlroots compositors are driven by the globals they offer, not by name; GNOME and KDE are
 * detected and what they lack is refused with its reason (`health.ts`, `permissions.ts`).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { AccessibilityBackend } from "../../ports/accessibility.ts";
import type { AppBackend } from "../../ports/apps.ts";
import type { Backend } from "../../ports/backend.ts";
import type { AgentCursorBackend } from "../../ports/cursor.ts";
import type { HealthCheck, PermissionCheck } from "../../ports/health.ts";
import type { PerceptionBackend } from "../../ports/perception.ts";
import type { LinuxApps } from "./apps.ts";
import type { AtspiAccessibility } from "./accessibility.ts";
import { lazyFacility } from "../linux/lazy_facility.ts";
import type { LinuxPerception } from "../linux/perception.ts";
import { createWaylandSystem } from "./system.ts";
import { WaylandClipboard } from "./clipboard.ts";
import type { WaylandSession } from "./detect.ts";
import { WaylandDisplay } from "./display.ts";
import { WaylandInput } from "./input.ts";
import type { MutterKeyboard } from "./mutter_keyboard.ts";
import { WaylandScreen } from "./screen.ts";
import { Screencopy } from "./screencopy.ts";
import { SwayIpc } from "./sway_ipc.ts";
import { ToplevelList } from "./toplevels.ts";
import { WaylandWindows } from "./windows.ts";

export { detectWaylandSession, type WaylandSession } from "./detect.ts";

/** Options of {@linkcode createWaylandBackend}. */
export interface WaylandBackendOptions {
  log?: (line: string) => void;
}

/** The agent cursor: no client may put a surface above others on every wlroots compositor. */
class NoAgentCursor implements AgentCursorBackend {
  unavailableReason(): Promise<string | null> {
    return Promise.resolve(
      "agent cursors are not drawn on Wayland (an overlay needs layer-shell, which this driver does not use yet)",
    );
  }
  draw(): void {}
  hide(): void {}
  remove(): void {}
}

function isSocket(path: string): boolean {
  try {
    return Deno.statSync(path).isSocket === true;
  } catch {
    return false;
  }
}

/** Creates the back end for a detected session. */
export function createWaylandBackend(session: WaylandSession, options: WaylandBackendOptions = {}): Backend {
  // Apps this process starts join the session.
  Deno.env.set("WAYLAND_DISPLAY", session.display);
  Deno.env.set("XDG_RUNTIME_DIR", session.runtimeDir);
  if (session.swaySocket) Deno.env.set("SWAYSOCK", session.swaySocket);
  // Over SSH no bus address is set: the session's bus is the one in its runtime directory.
  const bus = `${session.runtimeDir}/bus`;
  if (!Deno.env.get("DBUS_SESSION_BUS_ADDRESS") && isSocket(bus)) {
    Deno.env.set("DBUS_SESSION_BUS_ADDRESS", `unix:path=${bus}`);
    options.log?.(`Wayland session ${session.display}: using the session bus ${bus}`);
  }

  const display = new WaylandDisplay(session.socket);
  const sway = session.swaySocket ? new SwayIpc(session.swaySocket) : null;
  const windows = new WaylandWindows(new ToplevelList(display), sway);
  // GNOME: the keyboard through mutter's RemoteDesktop, where its D-Bus API answers.
  let mutterKeyboard: Promise<MutterKeyboard> | null = null;
  const seatKeyboard = session.family !== "gnome" ? null : () =>
    mutterKeyboard ??= (async () => {
      const [{ DBusConnection, sessionBusAddress }, { mutterRemoteDesktopReachable }] = await Promise.all([
        import("../../lib/dbus/mod.ts"),
        import("./mutter_keyboard.ts"),
      ]);
      const address = sessionBusAddress();
      const bus = address ? await DBusConnection.connect(address).catch(() => null) : null;
      if (!bus || !(await mutterRemoteDesktopReachable(bus))) {
        await bus?.close();
        mutterKeyboard = null;
        throw new DriverError(
          "unsupported_platform",
          "org.gnome.Mutter.RemoteDesktop is not reachable on the session bus",
          {
            hint:
              "a GNOME desktop session gives it only through the xdg-desktop-portal RemoteDesktop with a person's " +
              "consent, which this driver does not implement yet",
          },
        );
      }
      const [{ MutterKeyboard }, { seatGains }, { SeatCapability }] = await Promise.all([
        import("./mutter_keyboard.ts"),
        import("./virtual_input.ts"),
        import("./wire/protocol.ts"),
      ]);
      const hadKeyboard =
        ((await display.connected()).seatState.capabilities & SeatCapability.KEYBOARD) !== 0;
      return new MutterKeyboard(bus, async () => {
        if (!hadKeyboard) await seatGains(await display.connected(), SeatCapability.KEYBOARD, "keyboard");
      });
    })();
  const input = new WaylandInput(display, windows, seatKeyboard);
  const screen = new WaylandScreen(display, new Screencopy(display), windows, input.pointerDevice);
  const clipboard = new WaylandClipboard(display);

  const accessibility = lazyFacility<AtspiAccessibility>(async () => {
    const [{ AtspiAccessibility }, { whyNoAccessibility }] = await Promise.all([
      import("./accessibility.ts"),
      import("../linux/desktop/a11y_env.ts"),
    ]);
    return new AtspiAccessibility({
      windowBounds: (windowId) => windows.bounds(windowId),
      explainMissing: whyNoAccessibility,
    });
  });
  const apps = lazyFacility<LinuxApps>(async () => {
    const [{ LinuxApps }, { ACCESSIBILITY_ENV }] = await Promise.all([
      import("./apps.ts"),
      import("../linux/desktop/a11y_env.ts"),
    ]);
    const env: Record<string, string> = {
      ...ACCESSIBILITY_ENV,
      WAYLAND_DISPLAY: session.display,
      XDG_RUNTIME_DIR: session.runtimeDir,
      XDG_SESSION_TYPE: "wayland",
    };
    // Qt 5 starts on X11 unless told; with no X display it would not start at all.
    if (!Deno.env.get("QT_QPA_PLATFORM")) env.QT_QPA_PLATFORM = "wayland";
    return new LinuxApps({ env });
  });
  const perception = lazyFacility<LinuxPerception>(async () =>
    new (await import("../linux/perception.ts")).LinuxPerception()
  );

  return {
    os: "linux",
    description: `Wayland ${session.display} (${session.compositor})`,
    screen,
    windows,
    apps: apps.facility as AppBackend,
    accessibility: accessibility.facility as AccessibilityBackend,
    clipboard,
    input,
    perception: perception.facility as PerceptionBackend,
    agentCursor: new NoAgentCursor(),
    system: createWaylandSystem(),
    async permissions(): Promise<PermissionCheck[]> {
      const { waylandPermissions } = await import("./permissions.ts");
      return await waylandPermissions(session);
    },
    async health(names: readonly string[]): Promise<HealthCheck[]> {
      const [{ waylandHealth }, atspi] = await Promise.all([import("./health.ts"), accessibility.load()]);
      return await waylandHealth({ session, screen, windows, accessibility: atspi }, names);
    },
    async close() {
      const steps: (() => unknown)[] = [
        () => perception.loaded()?.close(),
        () => input.releaseAll(),
        async () => {
          const keyboard = await mutterKeyboard?.catch(() => null);
          await keyboard?.close();
          await keyboard?.bus.close();
        },
        () => clipboard.dispose(),
        () => accessibility.loaded()?.close(),
        () => screen.dispose(),
        () => display.close(),
      ];
      for (const step of steps) {
        try {
          await step();
        } catch (error) {
          options.log?.(`closing: ${(error as Error).message}`);
        }
      }
    },
  };
}
