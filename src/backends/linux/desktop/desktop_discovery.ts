/**
 * Finding the user's running desktop from a shell that was not started inside it (SSH):
 * the X sockets in /tmp/.X11-unix owned by the user, the cookie that opens each one (the
 * X server's `-auth` file, XAUTHORITY in the environment of the user's processes on that
 * display, the usual cookie files), the session bus at `$XDG_RUNTIME_DIR/bus`, and the
 * accessibility bus from the root window's `AT_SPI_BUS` property, as libatspi finds it
 * with only DISPLAY set.
 *
 * A display belongs to the user's session when its `AT_SPI_BUS` is the accessibility bus
 * the session bus hands out, or when one of the user's processes on it names that session
 * bus. `auto` attaches only to such a display; `system` takes the best one there is.
 *
 * @module
 */
import { join } from "node:path";
import { DBusConnection } from "../../../lib/dbus/mod.ts";
import { listPids, readCmdline, readEnviron } from "../os/proc_fs.ts";
import { XConnection } from "../x11/connection.ts";
import { getCardinal, getLongs, getText } from "../x11/properties.ts";

/** One X display the user could attach to. */
export interface DesktopCandidate {
  display: string;
  /** The cookie file that opened it; null when the server needed none. */
  xauthority: string | null;
  /** Why it could not be opened; null when it was. */
  error: string | null;
  /** The root window's `AT_SPI_BUS`: the accessibility bus of this display's session. */
  atspiBus: string | null;
  /** Session bus named by the user's processes on this display. */
  sessionBus: string | null;
  windowManager: boolean;
  clientWindows: number;
  /** True when the display belongs to the session bus the driver found. */
  matched: boolean;
}

/** What discovery chose, and why, in words for the log and for errors. */
export interface Discovery {
  chosen: DesktopCandidate | null;
  /** Session bus address to use for the chosen display (null: none found). */
  sessionBus: string | null;
  candidates: DesktopCandidate[];
  reason: string;
}

/** Options of {@linkcode discoverDesktop}. */
export interface DiscoveryOptions {
  /** `auto` attaches only to a display of the user's session; `system` to the best one. */
  mode: "auto" | "system";
  env?: (name: string) => string | undefined;
  uid?: number;
  socketDir?: string;
}

const SOCKET_DIR = "/tmp/.X11-unix";

/** Looks for the user's desktop; never throws for what it does not find. */
export async function discoverDesktop(options: DiscoveryOptions): Promise<Discovery> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const uid = options.uid ?? Deno.uid() ?? 0;
  const runtimeDir = env("XDG_RUNTIME_DIR") || `/run/user/${uid}`;
  const sessions = await userSessions(uid);
  const sessionBus = env("DBUS_SESSION_BUS_ADDRESS") || socketAddress(join(runtimeDir, "bus"), uid);
  const sessionA11y = sessionBus ? await accessibilityBusOf(sessionBus) : null;

  const names = env("DISPLAY") ? [env("DISPLAY")!] : userDisplays(options.socketDir ?? SOCKET_DIR, uid);
  const candidates: DesktopCandidate[] = [];
  for (const display of names) {
    const candidate = probeCandidate(display, cookieFiles(display, env, runtimeDir, sessions));
    const processBus = sessions.get(displayNumber(display))?.bus ?? null;
    candidate.sessionBus = processBus;
    candidate.matched = sessionBus !== null &&
      ((sessionA11y !== null && candidate.atspiBus === sessionA11y) || processBus === sessionBus);
    candidates.push(candidate);
  }
  const usable = candidates.filter((c) => c.error === null);
  const ranked = [...usable].sort((a, b) =>
    Number(b.matched) - Number(a.matched) || Number(b.windowManager) - Number(a.windowManager) ||
    b.clientWindows - a.clientWindows
  );
  const busWords = sessionBus
    ? `the session bus ${sessionBus}`
    : "no session bus (DBUS_SESSION_BUS_ADDRESS " +
      `is unset and ${join(runtimeDir, "bus")} does not exist)`;
  if (candidates.length === 0) {
    return {
      chosen: null,
      sessionBus,
      candidates,
      reason: `no X socket in ${SOCKET_DIR} belongs to uid ${uid}`,
    };
  }
  const matched = ranked.find((c) => c.matched) ?? null;
  const chosen = options.mode === "auto" ? matched : ranked[0] ?? null;
  if (chosen === null) {
    const seen = candidates.map(describe).join("; ");
    const why = usable.length === 0
      ? `none of the displays of uid ${uid} could be opened (${seen})`
      : sessionBus
      ? `none of the displays of uid ${uid} belongs to ${busWords} (${seen})`
      : `there is ${busWords}, so none of the displays of uid ${uid} can be tied to a logged-in session (${seen})`;
    return { chosen: null, sessionBus, candidates, reason: why };
  }
  const bus = chosen.matched ? sessionBus : chosen.sessionBus ?? sessionBus;
  const because = chosen.matched
    ? `its AT-SPI bus is the one ${busWords} hands out`
    : `it is the ${chosen.windowManager ? "managed " : ""}display of uid ${uid} with the most windows ` +
      `(${chosen.clientWindows}); ${sessionBus ? `it is not tied to ${busWords}` : `there is ${busWords}`}`;
  return {
    chosen,
    sessionBus: bus,
    candidates,
    reason: `${chosen.display}${chosen.xauthority ? ` (cookie ${chosen.xauthority})` : ""}: ${because}`,
  };
}

function describe(c: DesktopCandidate): string {
  if (c.error) return `${c.display}: ${c.error}`;
  return `${c.display}: ${c.windowManager ? "window manager" : "no window manager"}, ${c.clientWindows} ` +
    `windows, AT_SPI_BUS ${c.atspiBus ?? "unset"}`;
}

/** `:N` for each socket `X<N>` owned by `uid`, lowest first. */
function userDisplays(dir: string, uid: number): string[] {
  const numbers: number[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      const match = /^X(\d+)$/.exec(entry.name);
      if (!match) continue;
      try {
        const stat = Deno.statSync(join(dir, entry.name));
        if (stat.isSocket && stat.uid === uid) numbers.push(Number(match[1]));
      } catch {
        // Removed meanwhile.
      }
    }
  } catch {
    // No socket directory: no local X server.
  }
  return numbers.sort((a, b) => a - b).map((n) => `:${n}`);
}

function displayNumber(display: string): string {
  return /:(\d+)/.exec(display)?.[1] ?? display;
}

/** `unix:path=<path>` when a socket owned by `uid` is there. */
function socketAddress(path: string, uid: number): string | null {
  try {
    const stat = Deno.statSync(path);
    return stat.isSocket && stat.uid === uid ? `unix:path=${path}` : null;
  } catch {
    return null;
  }
}

interface SessionEnv {
  xauthority: string | null;
  bus: string | null;
}

/**
 * Per display number, what the user's own processes on it say: XAUTHORITY and the session
 * bus. The X server's own `-auth` argument counts as an XAUTHORITY too.
 */
async function userSessions(uid: number): Promise<Map<string, SessionEnv>> {
  const sessions = new Map<string, SessionEnv>();
  let pids: number[];
  try {
    pids = await listPids();
  } catch {
    return sessions;
  }
  for (const pid of pids) {
    try {
      if (Deno.statSync(`/proc/${pid}`).uid !== uid) continue;
    } catch {
      continue;
    }
    const argv = await readCmdline(pid);
    const server = xServerAuth(argv ?? []);
    if (server) {
      const entry = sessions.get(server.number) ?? { xauthority: null, bus: null };
      entry.xauthority ??= server.auth;
      sessions.set(server.number, entry);
    }
    const environ = await readEnviron(pid);
    const display = environ?.get("DISPLAY");
    if (!environ || !display) continue;
    const number = displayNumber(display);
    const entry = sessions.get(number) ?? { xauthority: null, bus: null };
    entry.xauthority ??= environ.get("XAUTHORITY") ?? null;
    entry.bus ??= environ.get("DBUS_SESSION_BUS_ADDRESS") ?? null;
    sessions.set(number, entry);
  }
  return sessions;
}

/** `Xorg :0 -auth FILE` / `Xvfb :3 -auth FILE`: the display number and the cookie file. */
export function xServerAuth(argv: readonly string[]): { number: string; auth: string } | null {
  if (argv.length === 0 || !/(^|\/)(Xorg|Xvfb|X|Xwayland|Xvnc|Xephyr)$/.test(argv[0])) return null;
  const display = argv.find((a) => /^:\d+$/.test(a));
  const auth = argv[argv.indexOf("-auth") + 1];
  if (!display || argv.indexOf("-auth") < 0 || !auth) return null;
  return { number: display.slice(1), auth };
}

/** Cookie files to try for `display`, most specific first; null means "no cookie". */
function cookieFiles(
  display: string,
  env: (name: string) => string | undefined,
  runtimeDir: string,
  sessions: Map<string, SessionEnv>,
): (string | null)[] {
  const home = env("HOME") ?? "";
  const files = [
    env("XAUTHORITY") ?? null,
    sessions.get(displayNumber(display))?.xauthority ?? null,
    join(runtimeDir, "gdm", "Xauthority"),
    home ? join(home, ".Xauthority") : null,
  ].filter((f): f is string => f !== null && readable(f));
  return [...new Set(files), null];
}

function readable(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Opens `display` with each cookie in turn and reads what ties it to a session. */
function probeCandidate(display: string, cookies: (string | null)[]): DesktopCandidate {
  const candidate: DesktopCandidate = {
    display,
    xauthority: null,
    error: null,
    atspiBus: null,
    sessionBus: null,
    windowManager: false,
    clientWindows: 0,
    matched: false,
  };
  const saved = Deno.env.get("XAUTHORITY");
  let connection: XConnection | null = null;
  try {
    for (const cookie of cookies) {
      // XOpenDisplay reads XAUTHORITY when it connects.
      if (cookie === null) Deno.env.delete("XAUTHORITY");
      else Deno.env.set("XAUTHORITY", cookie);
      try {
        connection = XConnection.open(display);
        candidate.xauthority = cookie;
        break;
      } catch {
        // Try the next cookie.
      }
    }
  } finally {
    if (saved === undefined) Deno.env.delete("XAUTHORITY");
    else Deno.env.set("XAUTHORITY", saved);
  }
  if (connection === null) {
    candidate.error = cookies.length > 1
      ? `refused with each cookie (${cookies.filter((c) => c !== null).join(", ")}) and without one`
      : "cannot be opened (no cookie file found)";
    return candidate;
  }
  try {
    candidate.atspiBus = getText(connection, connection.root, "AT_SPI_BUS");
    candidate.windowManager = getCardinal(connection, connection.root, "_NET_SUPPORTING_WM_CHECK") !== null;
    candidate.clientWindows = getLongs(connection, connection.root, "_NET_CLIENT_LIST")?.length ?? 0;
  } finally {
    connection.close();
  }
  return candidate;
}

/**
 * The accessibility bus a session bus hands out, without starting one: null when nothing
 * owns `org.a11y.Bus` there or the bus does not answer.
 */
async function accessibilityBusOf(address: string): Promise<string | null> {
  let bus: DBusConnection | null = null;
  try {
    bus = await DBusConnection.connect(address, { timeoutMs: 1500, callTimeoutMs: 1500 });
    const [owned] = await bus.call({
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus",
      member: "NameHasOwner",
      signature: "s",
      body: ["org.a11y.Bus"],
    });
    if (owned !== true) return null;
    const [a11y] = await bus.call({
      destination: "org.a11y.Bus",
      path: "/org/a11y/bus",
      interface: "org.a11y.Bus",
      member: "GetAddress",
    });
    return typeof a11y === "string" ? a11y : null;
  } catch {
    return null;
  } finally {
    await bus?.close();
  }
}
