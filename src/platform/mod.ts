/**
 * The one place that chooses an OS back end. Nothing else imports the OS folders.
 *
 * @module
 */
import { createDarwinBackend, createDarwinSystemFacility } from "./darwin/mod.ts";
import { createLinuxBackend, createLinuxSystem, type DesktopMode } from "./linux/mod.ts";
import type { Backend, SystemBackend } from "./types.ts";
import { createWindowsBackend, createWindowsSystem } from "./windows/mod.ts";

export type { DesktopMode };

/** Options for {@linkcode createBackend}. */
export interface BackendOptions {
  /** Linux: use the session's display, start a private one, or decide by DISPLAY. */
  desktop?: DesktopMode;
  /** Servers: start without a reachable desktop and connect when one appears. */
  waitForDisplay?: boolean;
  /** Progress messages (to stderr). */
  log?: (line: string) => void;
}

/** Creates the back end for `os` (default: this host). */
export async function createBackend(
  os: typeof Deno.build.os = Deno.build.os,
  options: BackendOptions = {},
): Promise<Backend> {
  switch (os) {
    case "linux":
      return await createLinuxBackend({
        desktop: options.desktop ?? "auto",
        waitForDisplay: options.waitForDisplay,
        log: options.log,
      });
    case "darwin":
      return createDarwinBackend();
    case "windows":
      return createWindowsBackend({ log: options.log });
    default:
      return createDarwinBackend();
  }
}

/**
 * The OS facilities apart from the desktop (processes, programs, packages, sockets) for
 * `os` (default: this host). Opens no display: for the CLI, the daemon client and anything
 * that runs before or without a back end.
 */
export function systemFor(os: typeof Deno.build.os = Deno.build.os): SystemBackend {
  switch (os) {
    case "linux":
      return createLinuxSystem();
    case "windows":
      return createWindowsSystem();
    default:
      return createDarwinSystemFacility();
  }
}
