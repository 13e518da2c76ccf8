/**
 * Which Wayland session this process is in, if any, from the environment and from what is
 * there: `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE`, the `wayland-*` sockets of the user's
 * `XDG_RUNTIME_DIR` (`/run/user/<uid>` when unset, as over SSH), `SWAYSOCK` or the sway IPC
 * socket beside them. The compositor's family is told by its globals (protocol, not name):
 * wlroots-style capture, toplevel and virtual-input globals, GNOME's `gtk_shell1`, KDE's
 * `org_kde_*`.
 *
 * @module
 */
import { SwayIpc } from "./sway_ipc.ts";
import { socketPath, WireConnection } from "./wire/connection.ts";

/** What kind of compositor answers, by the globals it offers. */
export type CompositorFamily = "wlroots" | "gnome" | "kde" | "other";

/** A Wayland session found. */
export interface WaylandSession {
  /** The WAYLAND_DISPLAY value (socket name or absolute path). */
  display: string;
  socket: string;
  runtimeDir: string;
  family: CompositorFamily;
  /** The compositor's name where it says (sway IPC); else the family's. */
  compositor: string;
  /** Its version where it says (sway IPC `get_version`), else null. */
  compositorVersion: string | null;
  /** sway's IPC socket, when there is one. */
  swaySocket: string | null;
  /** Global interface names with their versions. */
  globals: { iface: string; version: number }[];
  /** Why this session: the variable or the socket that named it. */
  reason: string;
}

/** Globals the wlroots back end uses, with the versions it speaks. */
export const WLROOTS_GLOBALS = {
  zwlr_foreign_toplevel_manager_v1: 3,
  zwlr_screencopy_manager_v1: 3,
  zwlr_virtual_pointer_manager_v1: 2,
  zwp_virtual_keyboard_manager_v1: 1,
  zwlr_data_control_manager_v1: 2,
} as const;

/** The family the globals say. */
export function familyOf(globals: readonly { iface: string }[]): CompositorFamily {
  const names = new Set(globals.map((g) => g.iface));
  if (names.has("zwlr_screencopy_manager_v1") || names.has("zwlr_foreign_toplevel_manager_v1")) {
    return "wlroots";
  }
  if (names.has("gtk_shell1")) return "gnome";
  if ([...names].some((n) => n.startsWith("org_kde_"))) return "kde";
  return "other";
}

/** The user's runtime directory: XDG_RUNTIME_DIR, else `/run/user/<uid>`. */
export function runtimeDirectory(): string | null {
  const set = Deno.env.get("XDG_RUNTIME_DIR");
  if (set) return set;
  const uid = Deno.uid();
  return uid === null ? null : `/run/user/${uid}`;
}

/** The display names to try: WAYLAND_DISPLAY, else the `wayland-N` sockets of the runtime directory. */
async function candidates(runtimeDir: string): Promise<{ display: string; reason: string }[]> {
  const named = Deno.env.get("WAYLAND_DISPLAY");
  if (named) return [{ display: named, reason: `WAYLAND_DISPLAY=${named}` }];
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(runtimeDir)) {
      if (/^wayland-\d+$/.test(entry.name)) found.push(entry.name);
    }
  } catch {
    return [];
  }
  const session = Deno.env.get("XDG_SESSION_TYPE");
  return found.sort().map((display) => ({
    display,
    reason: `the socket ${runtimeDir}/${display}${session ? ` (XDG_SESSION_TYPE=${session})` : ""}`,
  }));
}

/** sway's IPC socket: SWAYSOCK, else one `sway-ipc.*.sock` in the runtime directory that accepts. */
async function swaySocket(runtimeDir: string): Promise<string | null> {
  const named = Deno.env.get("SWAYSOCK");
  if (named) return named;
  try {
    for await (const entry of Deno.readDir(runtimeDir)) {
      if (!/^sway-ipc\..*\.sock$/.test(entry.name)) continue;
      const path = `${runtimeDir}/${entry.name}`;
      try {
        (await Deno.connect({ transport: "unix", path })).close();
        return path;
      } catch {
        // A stale socket of a sway that exited.
      }
    }
  } catch {
    // No readable runtime directory.
  }
  return null;
}

/**
 * The Wayland session to drive, or null when none answers: the first candidate socket whose
 * compositor accepts. The probe connection is closed again.
 */
export async function detectWaylandSession(): Promise<WaylandSession | null> {
  const runtimeDir = runtimeDirectory();
  if (!runtimeDir) return null;
  for (const { display, reason } of await candidates(runtimeDir)) {
    const socket = socketPath(display, runtimeDir);
    if (!socket) continue;
    let connection: WireConnection;
    try {
      connection = await WireConnection.open(socket);
    } catch {
      continue;
    }
    const globals = connection.globals.map(({ iface, version }) => ({ iface, version }));
    connection.close();
    const family = familyOf(globals);
    const sway = family === "wlroots" ? await swaySocket(runtimeDir) : null;
    const swayVersion = sway ? await new SwayIpc(sway).version().catch(() => null) : null;
    const compositorVersion = swayVersion && !swayVersion.startsWith("sway")
      ? `sway ${swayVersion}`
      : swayVersion;
    return {
      display,
      socket,
      runtimeDir,
      family,
      compositor: sway
        ? "sway"
        : family === "wlroots"
        ? "a wlroots compositor"
        : family === "gnome"
        ? "mutter (GNOME)"
        : family === "kde"
        ? "KWin (KDE)"
        : "an unknown compositor",
      compositorVersion,
      swaySocket: sway,
      globals,
      reason,
    };
  }
  return null;
}
