/**
 * The one place that chooses an OS back end. Nothing else imports the OS folders.
 *
 * @module
 */
import type { DesktopMode } from "./linux/mod.ts";
import type { Backend } from "../ports/backend.ts";
import type { LocalSockets, SystemBackend } from "../ports/system.ts";

export type { DesktopMode };

/** Options for {@linkcode createBackend}. */
export interface BackendOptions {
  /** Linux: use the session's display, start a private one, or decide by DISPLAY. */
  desktop?: DesktopMode;
  /** Servers: start without a reachable desktop and connect when one appears. */
  waitForDisplay?: boolean;
  /** A one-shot call (the CLI running one tool): set up only what the call uses. */
  oneShot?: boolean;
  /** Progress messages (to stderr). */
  log?: (line: string) => void;
}

/** Creates the back end for `os` (default: this host). */
export async function createBackend(
  os: typeof Deno.build.os = Deno.build.os,
  options: BackendOptions = {},
): Promise<Backend> {
  // Only the chosen OS's modules are loaded.
  switch (os) {
    case "linux": {
      const { createLinuxBackend } = await import("./linux/mod.ts");
      return await createLinuxBackend({
        desktop: options.desktop ?? "auto",
        waitForDisplay: options.waitForDisplay,
        oneShot: options.oneShot,
        log: options.log,
      });
    }
    case "windows":
      return (await import("./windows/mod.ts")).createWindowsBackend({ log: options.log });
    default:
      return (await import("./darwin/mod.ts")).createDarwinBackend();
  }
}

/**
 * Starts loading `os`'s back-end modules and returns at once, creating nothing: a one-shot CLI call
 * overlaps this with loading its tool, and {@linkcode createBackend} then finds them loaded.
 */
export function preloadBackend(os: typeof Deno.build.os = Deno.build.os): void {
  const loading = os === "linux"
    ? import("./linux/mod.ts")
    : os === "windows"
    ? import("./windows/mod.ts")
    : import("./darwin/mod.ts");
  // A module that fails to load fails again, with its error, when createBackend imports it.
  loading.catch(() => {});
}

/**
 * The OS facilities apart from the desktop (processes, programs, packages, sockets) for
 * `os` (default: this host). Opens no display: for the CLI, the daemon client and anything
 * that runs before or without a back end. Loads only that OS's code.
 */
export async function systemFor(os: typeof Deno.build.os = Deno.build.os): Promise<SystemBackend> {
  switch (os) {
    case "linux":
      return (await import("./linux/system.ts")).createLinuxSystem();
    case "windows":
      return (await import("./windows/system.ts")).createWindowsSystem();
    default:
      return (await import("./darwin/mod.ts")).createDarwinSystemFacility();
  }
}

/**
 * The OS's local sockets alone (a Unix socket; a named pipe on Windows): what a daemon client
 * (`cua-driver call`, `status`, `stop`) needs, without the rest of {@linkcode systemFor}.
 */
export async function localSocketsFor(os: typeof Deno.build.os = Deno.build.os): Promise<LocalSockets> {
  switch (os) {
    case "linux":
      return (await import("./linux/sockets.ts")).createLinuxSockets();
    case "windows":
      return (await import("./windows/sockets.ts")).createWindowsSockets();
    default:
      return new (await import("./darwin/sockets.ts")).DarwinSockets();
  }
}
