/**
 * A read-only probe of the accessibility stack: the session bus, the `org.a11y.Bus`
 * name on it, the AT-SPI bus it hands out, `org.a11y.Status.IsEnabled`, and the
 * registry's applications. Unlike the driver's own connection it changes nothing
 * (IsEnabled is read, never set) and gives up after a short per-call budget.
 *
 * @module
 */
import { DBusConnection, getProperty, sessionBusAddress } from "../../../lib/dbus/mod.ts";
import { DESKTOP_PROGRAMS, findProgram } from "../desktop/desktop_programs.ts";
import { AtspiPath, Iface } from "./interfaces.ts";

/** What {@linkcode probeAtspi} found. Nulls mean "not reached". */
export interface AtspiProbe {
  ok: boolean;
  /** Which step failed first, in words; null when every step worked. */
  failure: string | null;
  /** The exact remedy for that step. */
  remedy: string | null;
  session_bus_address: string | null;
  session_bus_reachable: boolean;
  a11y_bus_owned: boolean | null;
  a11y_bus_activatable: boolean | null;
  a11y_bus_address: string | null;
  a11y_bus_reachable: boolean | null;
  is_enabled: boolean | null;
  registered_apps: number | null;
  /** Set when asked for: the outcome of `Cache.GetItems` on one registered application. */
  get_items?: { app: string; ok: boolean; items: number | null; error: string | null } | null;
}

const DBUS = {
  destination: "org.freedesktop.DBus",
  path: "/org/freedesktop/DBus",
  interface: "org.freedesktop.DBus",
} as const;
const EMBEDDED = "or run cua-driver with --desktop embedded";

/** The command that starts the bus launcher, or how to install it. */
function launcherRemedy(): string {
  const launcher = findProgram(DESKTOP_PROGRAMS.atspiBusLauncher);
  return launcher === null
    ? `install at-spi2-core (apt-get install -y at-spi2-core) and start at-spi-bus-launcher, ${EMBEDDED}`
    : `install at-spi2-core and start at-spi-bus-launcher (${launcher} --launch-immediately &), ${EMBEDDED}`;
}

/**
 * Where the desktop's own session bus is: the user's bus socket when there is one. A bus
 * from dbus-launch would be a new one that none of the desktop's apps are on.
 */
function sessionBusRemedy(): string {
  const uid = Deno.uid() ?? 0;
  const socket = `${Deno.env.get("XDG_RUNTIME_DIR") || `/run/user/${uid}`}/bus`;
  let here = false;
  try {
    here = Deno.statSync(socket).isSocket === true;
  } catch {
    // No user bus socket.
  }
  return here
    ? `export DBUS_SESSION_BUS_ADDRESS=unix:path=${socket} (the session bus of your login, which the ` +
      "desktop's apps use), or run cua-driver with --desktop system to find it"
    : "export the DBUS_SESSION_BUS_ADDRESS of a process in the desktop session " +
      "(tr '\\0' '\\n' < /proc/<pid of an app on it>/environ | grep DBUS), or run cua-driver with " +
      "--desktop system to find it (a bus from dbus-launch is a new one the desktop's apps are not on)";
}

/**
 * Walks the accessibility stack step by step and stops at the first missing piece.
 *
 * @param options.timeoutMs Budget per connection and call (default 1500).
 * @param options.getItems Also try `Cache.GetItems` on one registered application.
 */
export async function probeAtspi(
  options: { timeoutMs?: number; getItems?: boolean } = {},
): Promise<AtspiProbe> {
  const timeoutMs = options.timeoutMs ?? 1500;
  const address = sessionBusAddress();
  const probe: AtspiProbe = {
    ok: false,
    failure: null,
    remedy: null,
    session_bus_address: address,
    session_bus_reachable: false,
    a11y_bus_owned: null,
    a11y_bus_activatable: null,
    a11y_bus_address: null,
    a11y_bus_reachable: null,
    is_enabled: null,
    registered_apps: null,
  };
  const fail = (failure: string, remedy: string): AtspiProbe => ({ ...probe, ok: false, failure, remedy });
  if (!address) {
    return fail("DBUS_SESSION_BUS_ADDRESS is not set: no session bus, so no AT-SPI bus", sessionBusRemedy());
  }
  let session: DBusConnection;
  try {
    session = await DBusConnection.connect(address, { timeoutMs, callTimeoutMs: timeoutMs });
  } catch (error) {
    return fail(
      `The session bus at DBUS_SESSION_BUS_ADDRESS=${address} does not answer: ${message(error)}`,
      sessionBusRemedy(),
    );
  }
  probe.session_bus_reachable = true;
  let a11y: DBusConnection | null = null;
  try {
    const [owned] = await session.call({
      ...DBUS,
      member: "NameHasOwner",
      signature: "s",
      body: ["org.a11y.Bus"],
    });
    probe.a11y_bus_owned = owned === true;
    if (!probe.a11y_bus_owned) {
      const [names] = await session.call({ ...DBUS, member: "ListActivatableNames" });
      probe.a11y_bus_activatable = Array.isArray(names) && names.includes("org.a11y.Bus");
      if (!probe.a11y_bus_activatable) {
        return fail("Nothing owns org.a11y.Bus on the session bus: AT-SPI is not running", launcherRemedy());
      }
    }
    try {
      // Activates the launcher when it is activatable and not yet running, as every AT-SPI client does.
      const [a11yAddress] = await session.call({
        destination: "org.a11y.Bus",
        path: "/org/a11y/bus",
        interface: "org.a11y.Bus",
        member: "GetAddress",
      });
      probe.a11y_bus_address = String(a11yAddress);
    } catch (error) {
      return fail(`org.a11y.Bus does not give out its address: ${message(error)}`, launcherRemedy());
    }
    probe.is_enabled = await getProperty(
      session,
      "org.a11y.Bus",
      "/org/a11y/bus",
      "org.a11y.Status",
      "IsEnabled",
    )
      .then((value) => value === true, () => null);
    try {
      a11y = await DBusConnection.connect(probe.a11y_bus_address, { timeoutMs, callTimeoutMs: timeoutMs });
    } catch (error) {
      probe.a11y_bus_reachable = false;
      return fail(
        `The AT-SPI bus at ${probe.a11y_bus_address} does not answer: ${message(error)}`,
        `restart at-spi-bus-launcher (kill it; D-Bus or the session starts it again), ${EMBEDDED}`,
      );
    }
    probe.a11y_bus_reachable = true;
    let apps: [string, string][];
    try {
      const [children] = await a11y.call({
        destination: AtspiPath.REGISTRY_NAME,
        path: AtspiPath.ROOT,
        interface: Iface.ACCESSIBLE,
        member: "GetChildren",
      });
      apps = children as [string, string][];
      probe.registered_apps = apps.length;
    } catch (error) {
      const registryd = "/usr/libexec/at-spi2-registryd";
      return fail(
        `The AT-SPI registry does not answer on the accessibility bus: ${message(error)}`,
        `start the AT-SPI registry (${
          exists(registryd) ? registryd : "at-spi2-registryd, from at-spi2-core"
        } &)`,
      );
    }
    if (options.getItems) probe.get_items = await tryGetItems(a11y, apps.map(([name]) => name), timeoutMs);
    return { ...probe, ok: true };
  } catch (error) {
    return fail(`The session bus failed mid-probe: ${message(error)}`, launcherRemedy());
  } finally {
    await a11y?.close();
    await session.close();
  }
}

/** `Cache.GetItems` on the first application that answers it, or the last error. */
async function tryGetItems(
  a11y: DBusConnection,
  apps: string[],
  timeoutMs: number,
): Promise<AtspiProbe["get_items"]> {
  let last: AtspiProbe["get_items"] = null;
  // At most three applications: one that is busy should not make the probe slow.
  for (const app of apps.slice(0, 3)) {
    try {
      const [items] = await a11y.call(
        { destination: app, path: AtspiPath.CACHE, interface: Iface.CACHE, member: "GetItems" },
        { timeoutMs },
      );
      return { app, ok: true, items: Array.isArray(items) ? items.length : null, error: null };
    } catch (error) {
      last = { app, ok: false, items: null, error: message(error) };
    }
  }
  return last;
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
