/**
 * The platform checks of health_report on Linux: the display, the EWMH window manager,
 * the accessibility stack, the capture path (timed) and the input paths. Each runs only
 * when asked for, and a failed probe is a `fail` check with a hint, never a throw.
 *
 * @module
 */
import { runHealthProbes } from "../../kernel/health_probes.ts";
import type { HealthCheck } from "../../ports/health.ts";
import type { InputBackend } from "../../ports/input.ts";
import type { AtspiAccessibility } from "./accessibility.ts";
import { probeAtspi } from "./atspi/probe_atspi.ts";
import { probeXInput2, probeXTest } from "./x11/probe_x11.ts";
import { serverVendor, type XConnection } from "./x11/connection.ts";
import { getCardinal, getLongs, getText } from "./x11/properties.ts";
import type { X11Screen } from "./screen.ts";

/** The parts of the Linux back end the checks read. */
export interface LinuxHealthDeps {
  displayName: string;
  embedded: boolean;
  /** The back end's own connection (reopened when the server came back). */
  connection(): XConnection;
  /** True when XComposite redirection is on for the back end's connection. */
  offscreenCapture(): Promise<boolean>;
  screen: X11Screen;
  input: InputBackend;
  accessibility: Pick<AtspiAccessibility, "diagnose">;
}

type Probe = (deps: LinuxHealthDeps) => Promise<HealthCheck>;

const PROBES: Record<string, Probe> = {
  display: displayCheck,
  window_manager: windowManagerCheck,
  accessibility: accessibilityCheck,
  capture: captureCheck,
  input: inputCheck,
};

/** Runs the named checks (unknown names are ignored), in the order asked, concurrently. */
export function linuxHealth(deps: LinuxHealthDeps, names: readonly string[]): Promise<HealthCheck[]> {
  return runHealthProbes(PROBES, deps, names);
}

async function displayCheck(deps: LinuxHealthDeps): Promise<HealthCheck> {
  const conn = deps.connection();
  const { width, height } = conn.screenSize();
  const displays = await deps.screen.displays();
  const vendor = serverVendor(conn);
  return {
    name: "display",
    status: "pass",
    message: `X11 ${deps.displayName} ${width}x${height} (${vendor}${deps.embedded ? ", embedded" : ""})`,
    data: {
      display: deps.displayName,
      width,
      height,
      vendor,
      embedded: deps.embedded,
      monitors: displays.length,
    },
  };
}

function windowManagerCheck(deps: LinuxHealthDeps): Promise<HealthCheck> {
  const conn = deps.connection();
  const check = getCardinal(conn, conn.root, "_NET_SUPPORTING_WM_CHECK");
  // EWMH: the child window names itself in the same property, or the manager is gone.
  const valid = check !== null && check !== 0n &&
    getCardinal(conn, check, "_NET_SUPPORTING_WM_CHECK") === check;
  if (!valid) {
    return Promise.resolve({
      name: "window_manager",
      status: "fail",
      message: "No EWMH window manager: _NET_SUPPORTING_WM_CHECK is missing or stale",
      hint: "start a window manager (for example openbox) or run cua-driver with --desktop embedded; " +
        "without one, bring_to_front and set_window_frame are not honoured and list_windows has no stacking",
      data: { name: null },
    });
  }
  const name = getText(conn, check, "_NET_WM_NAME") ?? getText(conn, check, "WM_NAME");
  const supported = getLongs(conn, conn.root, "_NET_SUPPORTED")?.length ?? 0;
  return Promise.resolve({
    name: "window_manager",
    status: "pass",
    message: `${name ?? "An unnamed EWMH window manager"} (${supported} EWMH hints supported)`,
    data: { name, check_window: Number(check), supported_hints: supported },
  });
}

/** The AT-SPI check of health_report (the Wayland back end runs it too). */
export async function accessibilityCheck(deps: Pick<LinuxHealthDeps, "accessibility">): Promise<HealthCheck> {
  const probe = await probeAtspi();
  const { ok: _ok, failure, remedy, ...data } = probe;
  if (!probe.ok) {
    return {
      name: "accessibility",
      status: "fail",
      message: failure ?? "AT-SPI is unavailable",
      ...(remedy ? { hint: remedy } : {}),
      data,
    };
  }
  // Through the driver's own connection, which registers for events as on first use:
  // toolkits export Cache.GetItems only while someone listens.
  const { registeredApps, getItems } = await deps.accessibility.diagnose();
  const items = getItems === null
    ? "Cache.GetItems not tried (no application registered)"
    : getItems.ok
    ? `Cache.GetItems works (${getItems.items} objects from ${getItems.app})`
    : `Cache.GetItems failed on ${getItems.app}: ${getItems.error}`;
  return {
    name: "accessibility",
    status: "pass",
    message: `AT-SPI bus reachable, ${registeredApps} registered application${
      registeredApps === 1 ? "" : "s"
    }; ${items}`,
    data: { ...data, registered_apps: registeredApps, get_items: getItems },
  };
}

async function captureCheck(deps: LinuxHealthDeps): Promise<HealthCheck> {
  // Twice: the first capture may set up the shared segment; the second is what an agent waits for.
  const timed = async () => {
    const started = performance.now();
    const image = await deps.screen.captureDisplay("primary");
    return { image, ms: Math.round((performance.now() - started) * 10) / 10 };
  };
  const first = await timed();
  const { image, ms } = await timed();
  const shm = deps.screen.usesShm;
  const composite = await deps.offscreenCapture();
  const data = {
    shm,
    composite,
    test_capture_ms: ms,
    first_capture_ms: first.ms,
    width: image.width,
    height: image.height,
  };
  const path = shm ? "MIT-SHM" : "XGetImage (no MIT-SHM: slower)";
  if (!composite) {
    return {
      name: "capture",
      status: "fail",
      message:
        `${path} capture of ${image.width}x${image.height} in ${ms} ms, but no Composite redirection: ` +
        "a covered window's screenshot shows what covers it",
      hint: 'enable the Composite extension (Xorg: Option "Composite" "Enable"; Xvfb: +extension Composite)',
      data,
    };
  }
  return {
    name: "capture",
    status: "pass",
    message: `${path} capture of ${image.width}x${image.height} in ${ms} ms; Composite redirection on`,
    data,
  };
}

async function inputCheck(deps: LinuxHealthDeps): Promise<HealthCheck> {
  const conn = deps.connection();
  const xtest = probeXTest(conn);
  const xinput2 = probeXInput2(conn);
  const background = await deps.input.backgroundAvailable();
  const reset = (await deps.input.heldInputReset?.()) ?? null;
  const data = {
    xtest: xtest.ok,
    xinput2: xinput2.ok,
    background_pointer: background,
    background_keyboard: background,
    held_input_reset: reset,
  };
  const released = reset?.released.reduce((n, d) => n + d.buttons.length + d.keys.length, 0) ?? 0;
  const resetNote = reset === null
    ? ""
    : released > 0
    ? `; on attaching, released ${released} button${released === 1 ? "" : "s"}/key${
      released === 1 ? "" : "s"
    } an earlier driver left held (${reset.released.map((d) => d.device).join(", ")})`
    : reset.core_skipped
    ? `; on attaching, nothing held on earlier drivers' devices; the user's XTEST devices were left alone: ${reset.core_skipped}`
    : "; on attaching, nothing was held";
  if (!xtest.ok) {
    return { name: "input", status: "fail", message: xtest.detail, hint: xtest.remedy ?? undefined, data };
  }
  if (!background) {
    return {
      name: "input",
      status: "fail",
      message: `XTEST works but background input is unavailable (${xinput2.detail}): foreground input only`,
      hint: xinput2.remedy ?? undefined,
      data,
    };
  }
  return {
    name: "input",
    status: "pass",
    message: `XTEST and XInput 2.2: background pointer and keyboard available${resetNote}`,
    data,
  };
}
