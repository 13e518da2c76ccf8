/**
 * The Linux back end: X11 through libX11 FFI, AT-SPI over D-Bus, /proc and XDG
 * for apps; a Wayland session goes to the Wayland back end (`../wayland/session.ts` decides).
 * Starts a private desktop when asked to, or when there is no display of either kind.
 * Windows, apps, accessibility, input, the clipboard and text recognition load on first use
 * (`lazy_facility.ts`), as do the health and permission probes, the private desktop and
 * the deferred back end of a server waiting for a display.
 *
 * @module
 */
import { asDriverError, DriverError } from "../../ports/errors.ts";
import type { AccessibilityBackend } from "../../ports/accessibility.ts";
import type { AppBackend } from "../../ports/apps.ts";
import type { Backend } from "../../ports/backend.ts";
import type { ClipboardBackend } from "../../ports/clipboard.ts";
import type { HealthCheck, PermissionCheck } from "../../ports/health.ts";
import type { InputBackend } from "../../ports/input.ts";
import type { PerceptionBackend } from "../../ports/perception.ts";
import type { WindowBackend } from "../../ports/windows.ts";
import type { LinuxApps } from "./apps.ts";
import type { AtspiAccessibility } from "./accessibility.ts";
import { X11AgentCursors } from "./cursor.ts";
import type { Discovery } from "./desktop/desktop_discovery.ts";
import type { EmbeddedDesktop } from "./desktop/embedded_desktop.ts";
import type { X11Input } from "./input.ts";
import { lazyFacility } from "./lazy_facility.ts";
import type { LinuxPerception } from "./perception.ts";
import { createLinuxSystem } from "./system.ts";

export { createLinuxSystem } from "./system.ts";
import type { X11Clipboard } from "./clipboard.ts";
import type * as Composite from "./x11/composite.ts";
import type * as Connection from "./x11/connection.ts";
import type { XConnection } from "./x11/connection.ts";
import { X11Screen } from "./screen.ts";
import { XWire } from "../../lib/x11/wire.ts";
import type { X11Windows } from "./windows.ts";

/** How to pick the desktop: the session's own, a private one, or decide by DISPLAY. */
export type DesktopMode = "auto" | "embedded" | "system";

/** Options for {@linkcode createLinuxBackend}. */
export interface LinuxBackendOptions {
  desktop: DesktopMode;
  /**
   * Servers: when no desktop is reachable, start anyway and connect on the first call after
   * one appears (diagnostic tools answer meanwhile) instead of failing.
   */
  waitForDisplay?: boolean;
  /**
   * A one-shot call: covered-window capture (XComposite redirection of every top-level window)
   * is turned on at the first window capture, not at start. Turning it on and off again (when the
   * connection closes) makes the X server re-render every window: ~40 ms of its CPU per call on a
   * desktop of four windows, for calls that capture no window. And with a DISPLAY that opens but no
   * session bus address, the search for the display's buses waits for the first use of
   * accessibility or apps (~150 ms: it reads every process of the user). The agent cursor's
   * overlay code, which servers load at start, loads when a cursor is first shown.
   */
  oneShot?: boolean;
  log?: (line: string) => void;
}

/**
 * Reopens the X connection after the server went away, at most once per call
 * site, so a restarted server is picked up without restarting the driver. Xlib's code
 * (connection.ts and libX11's bindings) loads at {@linkcode load}: at start, except for a
 * one-shot call that reached the display over the wire client, which loads it at first use.
 */
class DisplayHolder {
  #connection: XConnection | null = null;
  #code: typeof Connection | null = null;
  /** Whether redirection is on for this connection; null until asked. */
  #offscreen: boolean | null = null;
  /** The redirection code: given when eager, else loaded at the first ask. */
  #composite: typeof Composite | null;
  readonly eager: boolean;
  /**
   * @param composite The redirection code, to turn covered-window capture on at every connect
   *   (servers); null to turn it on at the first ask (one-shot calls), loading the code then.
   * @param opened A connection to `name` already open, used first.
   */
  constructor(readonly name: string, composite: typeof Composite | null, opened: XConnection | null = null) {
    this.#composite = composite;
    this.eager = composite !== null;
    this.#connection = opened;
    if (opened && this.eager) this.#redirect(opened);
  }

  /** Loads Xlib's code, after which {@linkcode get} can open the connection. */
  async ready(): Promise<void> {
    this.#code ??= await import("./x11/connection.ts");
  }

  /** The connection, opening it (and loading Xlib's code) first when needed. */
  async load(): Promise<XConnection> {
    await this.ready();
    return this.get();
  }

  /**
   * The connection, opened again after the server went away.
   *
   * @throws {TypeError} before {@linkcode load} loaded Xlib's code (a programming error: a
   *   facility's loader awaits load() before it uses the connection).
   */
  get(): XConnection {
    if (this.#connection?.alive) return this.#connection;
    if (!this.#code) throw new TypeError("DisplayHolder.get() is used before load()");
    this.#connection?.close();
    this.#connection = null;
    const connection = this.#code.XConnection.open(this.name);
    this.#connection = connection;
    this.#offscreen = null;
    if (this.eager) this.#redirect(connection);
    return connection;
  }

  /** True when covered windows can be captured (XComposite redirection is on); turns it on first. */
  async offscreenCapture(): Promise<boolean> {
    this.#composite ??= await import("./x11/composite.ts");
    return this.#redirect(await this.load());
  }

  #redirect(connection: XConnection): boolean {
    return this.#offscreen ??= this.#composite!.enableOffscreenCapture(connection);
  }

  close(): void {
    this.#connection?.close();
    this.#connection = null;
  }
}

/**
 * Creates the Linux back end.
 *
 * @throws {DriverError} `display_unavailable` when no desktop is reachable and
 *   `options.waitForDisplay` is not set.
 */
export async function createLinuxBackend(options: LinuxBackendOptions): Promise<Backend> {
  if (!options.waitForDisplay) return await startLinuxBackend(options);
  try {
    return await startLinuxBackend(options);
  } catch (error) {
    const initialError = asDriverError(error);
    if (initialError.code !== "display_unavailable") throw error;
    options.log?.(`${initialError.message}: serving without a desktop until one is reachable`);
    const { deferredBackend } = await import("../../kernel/deferred_backend.ts");
    return deferredBackend({
      os: "linux",
      system: createLinuxSystem(),
      start: () => startLinuxBackend(options),
      initialError,
      offlinePermissions: async () => (await import("./permissions.ts")).linuxPermissions(null),
      log: options.log,
    });
  }
}

async function startLinuxBackend(options: LinuxBackendOptions): Promise<Backend> {
  // A Wayland session (WAYLAND_DISPLAY, or over SSH a compositor's socket in the user's runtime
  // directory) is served by the Wayland back end, with XWayland's DISPLAY composed in.
  // An X session (DISPLAY without WAYLAND_DISPLAY) loads none of the Wayland code.
  const hasDisplay = Boolean(Deno.env.get("DISPLAY"));
  if (options.desktop !== "embedded" && (Deno.env.get("WAYLAND_DISPLAY") || !hasDisplay)) {
    const { waylandSessionBackend } = await import("../wayland/session.ts");
    const wayland = await waylandSessionBackend({
      desktop: options.desktop,
      log: options.log,
      x11: hasDisplay ? () => startX11Backend(options) : null,
    });
    if (wayland) return wayland;
  }
  return await startX11Backend(options);
}

async function startX11Backend(options: LinuxBackendOptions): Promise<Backend> {
  const { desktop, found, asIs, openedAsIs, wire } = await chooseDesktop(options);
  const env: Record<string, string> = desktop ? { ...desktop.env } : found ? discoveredEnv(found) : {};
  // A one-shot call on a DISPLAY without a bus address: the buses are looked for on first need.
  const findBuses = asIs ? busFinder(options, env) : () => Promise.resolve();
  const displayName = desktop?.display ?? env.DISPLAY ?? Deno.env.get("DISPLAY")!;
  // Everything this process starts or connects to uses the chosen desktop.
  for (const [key, value] of Object.entries(env)) Deno.env.set(key, value);

  // Servers turn covered-window capture on at every connect; a one-shot call at its first window capture.
  const composite = options.oneShot ? null : await import("./x11/composite.ts");
  const display = new DisplayHolder(displayName, composite, openedAsIs);
  // A one-shot call that reached the display over the wire opens Xlib at its first use.
  if (!wire) {
    try {
      await display.load();
    } catch (error) {
      await desktop?.stop();
      throw error;
    }
  }
  // Servers load the overlay code now; a one-shot call when it shows a cursor.
  const agentCursor = new X11AgentCursors(displayName, { preload: !options.oneShot });
  const screen = new X11Screen(() => display.load(), {
    around: (capture) => agentCursor.withHidden(capture),
    windowsNeedIt: async () => !(await display.offscreenCapture()),
  }, wire);
  const windows = lazyFacility<X11Windows>(async () => {
    const [{ X11Windows }] = await Promise.all([import("./windows.ts"), display.ready()]);
    return new X11Windows(() => display.get());
  });
  const accessibility = lazyFacility<AtspiAccessibility>(async () => {
    const [{ AtspiAccessibility }, { whyNoAccessibility }] = await Promise.all([
      import("./accessibility.ts"),
      import("./desktop/a11y_env.ts"),
      findBuses(),
    ]);
    return new AtspiAccessibility({
      windowBounds: async (windowId) => await windows.facility.bounds(windowId),
      explainMissing: whyNoAccessibility,
    });
  });
  const apps = lazyFacility<LinuxApps>(async () => {
    const [{ LinuxApps }, { accessibilityEnv, publishAtspiBus }] = await Promise.all([
      import("./apps.ts"),
      import("./desktop/a11y_env.ts"),
      findBuses(),
      display.ready(),
    ]);
    let busPublished: Promise<void> | null = null;
    return new LinuxApps({
      env: { ...accessibilityEnv(display.get()), ...env },
      // Qt finds the accessibility bus through the root window; a desktop whose bus
      // launcher did not know the display lacks the property.
      prepareLaunch: () =>
        busPublished ??= accessibility.load().then((atspi) => atspi.busAddress())
          .then(async (address) => void publishAtspiBus(await display.load(), address))
          .catch(() => {
            busPublished = null;
          }),
    });
  });
  const input = lazyFacility<X11Input>(async () => {
    const [{ X11Input }] = await Promise.all([import("./input.ts"), display.ready()]);
    return new X11Input(() => display.get());
  });
  const clipboard = lazyFacility<X11Clipboard>(async () =>
    new (await import("./clipboard.ts")).X11Clipboard(displayName)
  );
  const perception = lazyFacility<LinuxPerception>(async () =>
    new (await import("./perception.ts")).LinuxPerception()
  );
  if (!options.oneShot) {
    // A server loads now the code its first screenshot and window calls use (a one-shot call loads
    // it at first use); a module that fails to load fails again, with its error, at that use.
    windows.load().catch(() => {});
    import("./x11/capture.ts").catch(() => {});
    // A server attaches its input at start: what a killed driver left pressed is released now.
    input.load().then((devices) => devices.attach()).catch(() => {});
  }

  return {
    os: "linux",
    description: `X11 ${displayName}${desktop ? " (embedded)" : found ? ` (found: ${found.reason})` : ""}`,
    screen,
    windows: windows.facility as WindowBackend,
    apps: apps.facility as AppBackend,
    accessibility: accessibility.facility as AccessibilityBackend,
    clipboard: clipboard.facility as ClipboardBackend,
    input: input.facility as InputBackend,
    perception: perception.facility as PerceptionBackend,
    agentCursor,
    system: createLinuxSystem(),
    async permissions(): Promise<PermissionCheck[]> {
      const { linuxPermissions } = await import("./permissions.ts");
      return await linuxPermissions(clipboard.facility);
    },
    async health(names: readonly string[]): Promise<HealthCheck[]> {
      const [{ linuxHealth }, atspi] = await Promise.all([
        import("./health.ts"),
        accessibility.load(),
        display.ready(),
      ]);
      return await linuxHealth({
        displayName,
        embedded: desktop !== null,
        connection: () => display.get(),
        offscreenCapture: () => display.offscreenCapture(),
        screen,
        input: input.facility,
        accessibility: atspi,
      }, names);
    },
    async close() {
      // Every resource is released even when one of them fails to close (a lost X server).
      const steps: (() => unknown)[] = [
        () => agentCursor.close(),
        () => perception.loaded()?.close(),
        () => input.loaded()?.close(),
        () => clipboard.loaded()?.dispose(),
        () => accessibility.loaded()?.close(),
        () => screen.dispose(),
        () => wire?.close(),
        () => display.close(),
        () => desktop?.stop(),
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

/** What {@linkcode chooseDesktop} found, and the connection it probed with, if it kept one. */
interface ChosenDesktop {
  desktop: EmbeddedDesktop | null;
  found: Discovery | null;
  /** DISPLAY taken as it is, without a bus address (looked for at first need). */
  asIs: boolean;
  openedAsIs?: XConnection;
  /** A one-shot call's connection over the X protocol itself, when it opened. */
  wire?: XWire | null;
}

/**
 * The desktop to drive: the one DISPLAY names (discovery fills in a missing bus), the
 * user's running desktop found by `discoverDesktop` (desktop_discovery.ts), or a private one.
 */
async function chooseDesktop(options: LinuxBackendOptions): Promise<ChosenDesktop> {
  const hasDisplay = Boolean(Deno.env.get("DISPLAY"));
  // A one-shot call on a DISPLAY asks its screen questions over the X protocol itself (wire.ts).
  const wire = options.desktop !== "embedded" && hasDisplay && options.oneShot
    ? await XWire.connect(Deno.env.get("DISPLAY")!)
    : null;
  if (options.desktop !== "embedded" && hasDisplay && Deno.env.get("DBUS_SESSION_BUS_ADDRESS")) {
    return { desktop: null, found: null, asIs: false, wire };
  }
  // A one-shot call keeps the connection it probed with: closing it could be the last client
  // leaving, which makes a bare X server reset just before the driver connects again.
  if (wire) return { desktop: null, found: null, asIs: true, wire };
  const openedAsIs = options.desktop !== "embedded" && hasDisplay && options.oneShot
    ? await openAsIs(Deno.env.get("DISPLAY")!)
    : null;
  if (openedAsIs) return { desktop: null, found: null, asIs: true, openedAsIs };
  // A DISPLAY the user set is taken as given, in auto mode too; discovery then finds its buses.
  const found = options.desktop === "embedded"
    ? null
    : await (await import("./desktop/desktop_discovery.ts")).discoverDesktop({
      mode: hasDisplay ? "system" : options.desktop,
    });
  if (found?.chosen) {
    options.log?.(`desktop ${options.desktop}: ${hasDisplay ? "using" : "attaching to"} ${found.reason}`);
    return { desktop: null, found, asIs: false };
  }
  if (options.desktop === "system" || hasDisplay) {
    throw new DriverError("display_unavailable", `No X display: ${found?.reason ?? "DISPLAY is not set"}`, {
      hint: "log in to the desktop (or start Xvfb) as this user, export DISPLAY and XAUTHORITY, or use " +
        "--desktop embedded to start a private one",
    });
  }
  if (found) options.log?.(`desktop auto: ${found.reason}; starting a private desktop`);
  // The desktop's own programs are chatty; their output shows only with CUA_LOG=debug.
  const { EmbeddedDesktop } = await import("./desktop/embedded_desktop.ts");
  const desktop = await EmbeddedDesktop.start({
    log: Deno.env.get("CUA_LOG") === "debug" ? options.log : undefined,
  });
  options.log?.(`started embedded desktop ${desktop.display}`);
  if (options.oneShot) {
    options.log?.(
      "this private desktop, and every app started on it, ends with this call: for several calls on one " +
        'desktop run "cua-driver serve &" and then "cua-driver call <tool> [JSON]" (or one "cua-driver mcp")',
    );
  }
  return { desktop, found: null, asIs: false };
}

/**
 * For a one-shot call on a DISPLAY without a bus address: looks for the display's session and
 * accessibility buses once, at the first use of accessibility or apps, and puts them in `env` and
 * in this process's environment. Resolves without them when the search finds none or fails.
 */
function busFinder(options: LinuxBackendOptions, env: Record<string, string>): () => Promise<void> {
  let search: Promise<void> | null = null;
  return () =>
    search ??= (async () => {
      const { discoverDesktop } = await import("./desktop/desktop_discovery.ts");
      const found = await discoverDesktop({ mode: "system" }).catch((error) => {
        options.log?.(`desktop ${options.desktop}: looking for the session bus failed: ${error}`);
        return null;
      });
      if (!found?.chosen) return;
      options.log?.(`desktop ${options.desktop}: using ${found.reason}`);
      const { DISPLAY: _display, XAUTHORITY: _cookie, ...buses } = discoveredEnv(found);
      Object.assign(env, buses);
      for (const [key, value] of Object.entries(buses)) Deno.env.set(key, value);
    })();
}

/** A connection to `name` when it opens as it is (its cookie, if it needs one, where XAUTHORITY says). */
async function openAsIs(name: string): Promise<XConnection | null> {
  const { XConnection } = await import("./x11/connection.ts");
  try {
    return XConnection.open(name);
  } catch {
    return null;
  }
}

/** The variables that put this process (and the apps it starts) on a discovered desktop. */
function discoveredEnv(found: Discovery): Record<string, string> {
  const chosen = found.chosen!;
  const env: Record<string, string> = { DISPLAY: chosen.display };
  if (chosen.xauthority) env.XAUTHORITY = chosen.xauthority;
  if (found.sessionBus) env.DBUS_SESSION_BUS_ADDRESS = found.sessionBus;
  // Without a session bus of its own, the display's AT_SPI_BUS is how AT-SPI is reached.
  if (chosen.atspiBus && !chosen.matched && !Deno.env.get("AT_SPI_BUS_ADDRESS")) {
    env.AT_SPI_BUS_ADDRESS = chosen.atspiBus;
  }
  return env;
}
