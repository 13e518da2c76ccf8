/**
 * The Linux {@linkcode AppBackend}: processes from `/proc`, installed apps from XDG
 * desktop entries, launching and killing.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { AppBackend, AppInfo, LaunchRequest, LaunchResult, ProcessInfo } from "../../ports/apps.ts";
import { basename, programIndex, programKey } from "./xdg/command_line.ts";
import { applicationDirs, type DesktopEntry, listDesktopEntries } from "./xdg/desktop_entries.ts";
import { Launcher } from "./xdg/launch.ts";
import { childrenNamed, launchedAppName } from "./xdg/launchers.ts";
import * as proc from "./os/proc_fs.ts";

/** Options for {@linkcode LinuxApps}. */
export interface LinuxAppsOptions {
  /**
   * Desktop-session variables launched apps must get (DISPLAY, DBUS_SESSION_BUS_ADDRESS, ...),
   * added to the driver's own environment. They also override the XDG variables used to
   * find desktop entries.
   */
  env?: Record<string, string>;
  /** Runs before every launch (publishing the accessibility bus for Qt apps). */
  prepareLaunch?(): Promise<void>;
}

/** A live user-space process, as list_apps sees it. */
interface RunningProcess {
  pid: number;
  name: string;
  argv: string[];
}

/** Shell wrappers (`sh -c "..."`) would label every shell process as that app, so they never merge. */
const WRAPPER_KEYS = new Set(["sh", "bash", "dash", "zsh"]);

/** How long kill() waits for its own child to be reaped, so isAlive is false right after. */
const REAP_WAIT_MS = 1000;

/**
 * Processes and apps on Linux.
 *
 * @example
 * ```ts ignore
 * const apps = new LinuxApps({ env: { DISPLAY: ":99" } });
 * const { pid } = await apps.launch({ launchPath: "gedit" });
 * ```
 */
export class LinuxApps implements AppBackend {
  readonly #env: Record<string, string>;
  readonly #launcher: Launcher;

  constructor(options: LinuxAppsOptions = {}) {
    this.#env = options.env ?? {};
    this.#launcher = new Launcher({
      env: this.#env,
      entries: () => this.#entries(),
      prepare: options.prepareLaunch,
    });
  }

  #entries(): Promise<DesktopEntry[]> {
    return listDesktopEntries(applicationDirs({ ...Deno.env.toObject(), ...this.#env }));
  }

  /**
   * Every live user-space process (kernel threads excluded) merged with the installed
   * desktop entries, the way cua-driver's list_apps does: a process whose program
   * basename matches an entry's Exec basename carries that entry's id, name and
   * launch path; entries with no process follow with pid 0. Running rows come first, by pid.
   */
  async listApps(): Promise<AppInfo[]> {
    const [processes, entries] = await Promise.all([runningProcesses(), this.#entries()]);
    const byKey = new Map<string, DesktopEntry[]>();
    for (const entry of entries) {
      if (entry.key === null || WRAPPER_KEYS.has(entry.key)) continue;
      byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
    }
    const running = new Set<string>();
    const apps: AppInfo[] = processes.map((p) => {
      const entry = pickEntry(byKey.get(programKey(p.argv) ?? "") ?? [], p.argv);
      if (entry === null) {
        return { ...row(p.pid, null, p.name, true), kind: null, launchPath: null, lastUsed: null };
      }
      running.add(entry.id);
      return entryRow(entry, p.pid);
    });
    for (const entry of entries) if (!running.has(entry.id)) apps.push(entryRow(entry, 0));
    return apps;
  }

  /** Every live process (kernel threads included, zombies excluded) with its `comm` name. */
  async listProcesses(): Promise<ProcessInfo[]> {
    const stats = await Promise.all((await proc.listPids()).map((pid) => proc.readStat(pid)));
    return stats.filter((s): s is proc.ProcStat => s !== null && !proc.isDeadState(s.state))
      .map((s) => ({ pid: s.pid, name: s.comm }));
  }

  /** See {@linkcode Launcher.launch}. */
  launch(request: LaunchRequest): Promise<LaunchResult> {
    return this.#launcher.launch(request);
  }

  /** The app a launcher that launch() reported runs now; null while it runs none. */
  appBehind(launcher: number): Promise<number | null> {
    return this.#launcher.appBehind(launcher);
  }

  /**
   * Sends SIGKILL to `pid`. For a process this back end launched, also waits (briefly)
   * until it has been reaped.
   *
   * @throws {DriverError} `invalid_arguments` for a non-integer pid; `permission_denied`
   *   for pid ≤ 1, the driver itself, or a process the OS will not let us signal;
   *   `process_not_found` when the pid does not exist or has already exited.
   */
  async kill(pid: number): Promise<void> {
    if (!Number.isSafeInteger(pid)) {
      throw new DriverError("invalid_arguments", `Invalid pid ${JSON.stringify(pid)}`, {
        hint: "pass a process id from list_apps",
        field: "pid",
      });
    }
    if (pid <= 1 || pid === Deno.pid) {
      throw new DriverError("permission_denied", `Refusing to kill pid ${pid}`, {
        hint: pid <= 1
          ? "pass the pid of an app, not init or a process group"
          : "that pid is the driver itself",
      });
    }
    const stat = await proc.readStat(pid);
    if (stat === null || proc.isDeadState(stat.state)) throw processNotFound(pid);
    // A launcher's app goes with it (killing oosplash alone leaves soffice.bin running).
    const launched = await launchedAppName(pid);
    const apps = launched ? await childrenNamed(pid, launched) : [];
    try {
      Deno.kill(pid, "SIGKILL");
      for (const app of apps) {
        try {
          Deno.kill(app, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw processNotFound(pid);
      if (error instanceof Deno.errors.PermissionDenied) {
        throw new DriverError("permission_denied", `Not allowed to kill pid ${pid}`, {
          hint: "the process belongs to another user; the driver can only kill its user's processes",
        }, { cause: error });
      }
      throw new DriverError(
        "native_call_failed",
        `kill(${pid}, SIGKILL) failed: ${(error as Error).message}`,
        {
          symbol: "kill",
          hint: "call list_apps to check the process still exists",
        },
        { cause: error },
      );
    }
    await this.#launcher.reaped(pid, REAP_WAIT_MS);
  }

  /**
   * Sends SIGTERM to `pid` (and to the app a launcher runs), which an app may answer by
   * saving and cleaning up. Nothing for a pid that is gone already.
   *
   * @throws {DriverError} `permission_denied` for pid ≤ 1 or the driver itself.
   */
  async terminate(pid: number): Promise<void> {
    if (!Number.isSafeInteger(pid) || pid <= 1 || pid === Deno.pid) {
      throw new DriverError("permission_denied", `Refusing to terminate pid ${pid}`, {
        hint: "pass the pid of an app, not init or the driver",
      });
    }
    const launched = await launchedAppName(pid);
    const apps = launched ? await childrenNamed(pid, launched) : [];
    for (const target of [...apps, pid]) {
      try {
        Deno.kill(target, "SIGTERM");
      } catch {
        // Gone already (or not ours to signal: the force kill that follows says so).
      }
    }
  }

  /** See {@linkcode Launcher.exitCode}. */
  exitCode(pid: number): Promise<number | null> {
    return Promise.resolve(this.#launcher.exitCode(pid));
  }

  /** True while `pid` exists and is neither a zombie nor dead. */
  isAlive(pid: number): Promise<boolean> {
    return proc.isAlive(pid);
  }

  /** Start time of `pid` (stat field 22, clock ticks since boot), or null when it does not exist. */
  startTime(pid: number): Promise<string | null> {
    return proc.startTime(pid);
  }
}

function processNotFound(pid: number): DriverError {
  return new DriverError("process_not_found", `No running process with pid ${pid}`, {
    hint: "call list_apps for current pids",
  });
}

function row(pid: number, bundleId: string | null, name: string, running: boolean) {
  return { pid, bundleId, name, running, active: false };
}

function entryRow(entry: DesktopEntry, pid: number): AppInfo {
  return {
    ...row(pid, entry.id, entry.name, pid !== 0),
    kind: "desktop",
    launchPath: entry.launchPath,
    lastUsed: entry.mtime?.toISOString() ?? null,
  };
}

/** Among entries with the same key, prefer the one whose Exec program is the process's exact path, then the newest file. */
function pickEntry(candidates: readonly DesktopEntry[], argv: readonly string[]): DesktopEntry | null {
  if (candidates.length <= 1) return candidates[0] ?? null;
  const program = argv[programIndex(argv)];
  const exact = candidates.find((e) => e.argv[programIndex(e.argv)] === program);
  if (exact !== undefined) return exact;
  const time = (e: DesktopEntry) => e.mtime?.getTime() ?? 0;
  return candidates.reduce((best, e) => time(e) > time(best) ? e : best);
}

/** Live processes with a command line (kernel threads and zombies have none). */
async function runningProcesses(): Promise<RunningProcess[]> {
  const pids = await proc.listPids();
  const rows = await Promise.all(pids.map(async (pid) => {
    const [stat, argv] = await Promise.all([proc.readStat(pid), proc.readCmdline(pid)]);
    if (stat === null || argv === null || argv.length === 0 || proc.isDeadState(stat.state)) return null;
    // Some daemons rewrite argv into one spaced string ("sshd: user@pts/0").
    const words = argv.length === 1 && /\s/.test(argv[0]) && !argv[0].startsWith("/")
      ? argv[0].split(/\s+/)
      : argv;
    return { pid, name: displayName(stat.comm, words), argv: words };
  }));
  return rows.filter((r): r is RunningProcess => r !== null);
}

/** `comm` is cut to 15 bytes; use the program basename when it is the longer form. */
function displayName(comm: string, argv: readonly string[]): string {
  const i = programIndex(argv);
  const base = i < 0 ? "" : basename(argv[i]);
  return comm.length >= 15 && base.length > comm.length && base.startsWith(comm) ? base : comm;
}
