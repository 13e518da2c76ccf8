/**
 * The one place that chooses an OS back end, from one table of the OSes it knows; an unknown OS
 * is refused. Nothing else imports the OS folders.
 *
 * @module
 */
import { DriverError } from "../ports/errors.ts";
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

/** One OS's back end: how to load its modules and make each of its facilities. */
interface OsEntry {
  /** Loads the back end's modules, creating nothing. */
  load(): Promise<unknown>;
  backend(options: BackendOptions): Promise<Backend>;
  /** The OS facilities apart from the desktop; opens no display. */
  system(): Promise<SystemBackend>;
  /** The OS's local sockets alone. */
  sockets(): Promise<LocalSockets>;
}

/**
 * The one OS table: every OS the driver knows, each loading only its own modules (the literal
 * `import()`s keep them lazy). An OS not in it is refused, never given another OS's back end.
 */
const OS_TABLE: Readonly<Record<string, OsEntry>> = {
  linux: {
    load: () => import("./linux/mod.ts"),
    backend: async (options) =>
      await (await import("./linux/mod.ts")).createLinuxBackend({
        desktop: options.desktop ?? "auto",
        waitForDisplay: options.waitForDisplay,
        oneShot: options.oneShot,
        log: options.log,
      }),
    system: async () => (await import("./linux/system.ts")).createLinuxSystem(),
    sockets: async () => (await import("./linux/sockets.ts")).createLinuxSockets(),
  },
  windows: {
    load: () => import("./windows/mod.ts"),
    backend: async (options) => (await import("./windows/mod.ts")).createWindowsBackend({ log: options.log }),
    system: async () => (await import("./windows/system.ts")).createWindowsSystem(),
    sockets: async () => (await import("./windows/sockets.ts")).createWindowsSockets(),
  },
  darwin: {
    load: () => import("./darwin/mod.ts"),
    backend: async () => (await import("./darwin/mod.ts")).createDarwinBackend(),
    system: async () => (await import("./darwin/mod.ts")).createDarwinSystemFacility(),
    sockets: async () => new (await import("./darwin/sockets.ts")).DarwinSockets(),
  },
};

/** The operating systems with a back end, in the table's order. */
export const SUPPORTED_OS: readonly string[] = Object.keys(OS_TABLE);

/**
 * The table's entry for `os`.
 *
 * @throws {DriverError} `unsupported_platform` for an OS the table does not know.
 */
function entryFor(os: string): OsEntry {
  const entry = Object.hasOwn(OS_TABLE, os) ? OS_TABLE[os] : undefined;
  if (!entry) {
    throw new DriverError("unsupported_platform", `No back end for the operating system "${os}"`, {
      platform: os,
      hint: `cua-driver runs on ${SUPPORTED_OS.join(", ")}`,
    });
  }
  return entry;
}

/**
 * Creates the back end for `os` (default: this host).
 *
 * @throws {DriverError} `unsupported_platform` for an OS without a back end.
 */
export async function createBackend(
  os: typeof Deno.build.os = Deno.build.os,
  options: BackendOptions = {},
): Promise<Backend> {
  return await entryFor(os).backend(options);
}

/**
 * Starts loading `os`'s back-end modules and returns at once, creating nothing: a one-shot CLI call
 * overlaps this with loading its tool, and {@linkcode createBackend} then finds them loaded. An OS
 * without a back end loads nothing (createBackend refuses it).
 */
export function preloadBackend(os: typeof Deno.build.os = Deno.build.os): void {
  if (!Object.hasOwn(OS_TABLE, os)) return;
  // A module that fails to load fails again, with its error, when createBackend imports it.
  OS_TABLE[os].load().catch(() => {});
}

/**
 * The OS facilities apart from the desktop (processes, programs, packages, sockets) for
 * `os` (default: this host). Opens no display: for the CLI, the daemon client and anything
 * that runs before or without a back end. Loads only that OS's code.
 *
 * @throws {DriverError} `unsupported_platform` for an OS without a back end.
 */
export async function systemFor(os: typeof Deno.build.os = Deno.build.os): Promise<SystemBackend> {
  return await entryFor(os).system();
}

/**
 * The OS's local sockets alone (a Unix socket; a named pipe on Windows): what a daemon client
 * (`cua-driver call`, `status`, `stop`) needs, without the rest of {@linkcode systemFor}.
 *
 * @throws {DriverError} `unsupported_platform` for an OS without a back end.
 */
export async function localSocketsFor(os: typeof Deno.build.os = Deno.build.os): Promise<LocalSockets> {
  return await entryFor(os).sockets();
}
