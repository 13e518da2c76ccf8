/**
 * launch_app on Linux: spawns a program detached from the driver, or resolves a name
 * against installed desktop entries, or hands URLs and paths to `xdg-open`.
 *
 * @module
 */
import { DriverError } from "../../core/errors.ts";
import type { LaunchRequest, LaunchResult } from "../types.ts";
import { basename, joinCommandLine, programIndex, splitCommandLine } from "./command_line.ts";
import { type DesktopEntry, execArgv, parseDesktopEntry } from "./desktop_entries.ts";
import { startTime } from "./proc_fs.ts";
import { looksLikeUrl, xdgOpen } from "./xdg_open.ts";

/** Programs that need `--force-renderer-accessibility` to expose web content to AT-SPI. */
const CHROMIUM_LIKE = /chrome|chromium|electron|brave|edge/i;

/** Variables every launched app gets so GTK, Qt and Chromium load their AT-SPI bridges. */
const ACCESSIBILITY_ENV = { ACCESSIBILITY_ENABLED: "1", NO_AT_BRIDGE: "0" };

/** What {@linkcode Launcher} needs from its owner. */
export interface LauncherOptions {
  /** Variables added to the driver's own environment for launched apps (DISPLAY, DBUS_SESSION_BUS_ADDRESS). */
  env: Record<string, string>;
  /** Installed desktop entries, read when a name must be resolved. */
  entries(): Promise<DesktopEntry[]>;
}

/**
 * Throws when argv asks Chromium for a DevTools endpoint: that is browser_prepare's job.
 *
 * @throws {DriverError} `invalid_arguments`.
 */
export function refuseRemoteDebugging(argv: readonly string[]): void {
  const flag = argv.find((arg) => /^--?remote-debugging-/.test(arg));
  if (flag !== undefined) {
    throw new DriverError("invalid_arguments", `launch_app does not accept ${JSON.stringify(flag)}`, {
      hint: "call browser_prepare to launch or attach a browser with a DevTools endpoint",
      field: "additional_arguments",
    });
  }
}

/**
 * Finds the desktop entry an app name means: an exact Name, desktop-file id or Exec
 * basename (case-insensitive), else the one entry whose Name contains it.
 *
 * @returns The entry, or null when nothing matches.
 * @throws {DriverError} `app_not_found` when the name is a substring of several Names.
 */
export function resolveDesktopEntry(entries: readonly DesktopEntry[], name: string): DesktopEntry | null {
  const wanted = name.trim().toLowerCase();
  if (wanted === "") return null;
  const exact = entries.find((e) => e.name.toLowerCase() === wanted) ??
    entries.find((e) => e.id.toLowerCase() === wanted) ??
    entries.find((e) => e.key === wanted && e.argv.length > 0);
  if (exact !== undefined) return exact;
  const partial = entries.filter((e) => e.name.toLowerCase().includes(wanted) && e.argv.length > 0);
  if (partial.length > 1) {
    throw new DriverError("app_not_found", `App name ${JSON.stringify(name)} matches several apps`, {
      hint: "pass one of the candidate names exactly, or a launch_path",
      candidates: partial.map((e) => e.name),
    });
  }
  return partial[0] ?? null;
}

/** Adds `--force-renderer-accessibility` after a Chromium-family program, once. */
function withAccessibilityFlag(argv: string[]): string[] {
  const i = programIndex(argv);
  if (i < 0 || !CHROMIUM_LIKE.test(basename(argv[i]))) return argv;
  if (argv.includes("--force-renderer-accessibility")) return argv;
  return [...argv.slice(0, i + 1), "--force-renderer-accessibility", ...argv.slice(i + 1)];
}

async function existingPath(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Launches apps and keeps reaping them while the driver runs. */
export class Launcher {
  readonly #options: LauncherOptions;
  /** Exit promises of children still running; awaiting one reaps the child. */
  readonly #children = new Map<number, Promise<unknown>>();

  constructor(options: LauncherOptions) {
    this.#options = options;
  }

  /**
   * Launches an app: `launchPath` wins over `name`, which wins over `urls`. With a
   * program, `additionalArguments` and then `urls` are appended to its argv; without
   * one, each URL goes to `xdg-open`.
   *
   * @throws {DriverError} `invalid_arguments` (nothing to launch, unbalanced quote,
   *   `--remote-debugging-*`), `app_not_found`, `launch_failed`.
   */
  async launch(request: LaunchRequest): Promise<LaunchResult> {
    const extra = [...(request.additionalArguments ?? []), ...(request.urls ?? [])];
    refuseRemoteDebugging(extra);
    const target = request.launchPath?.trim() || request.name?.trim() || "";
    if (target === "") {
      const urls = request.urls ?? [];
      if (urls.length === 0) {
        throw new DriverError("invalid_arguments", "Nothing to launch", {
          hint: "pass launch_path, name or urls",
          field: "launch_path",
        });
      }
      const command = await xdgOpen(urls, this.#childEnv());
      return { pid: null, name: urls[0], startTime: null, command };
    }
    return await this.#launchTarget(target, request, extra);
  }

  async #launchTarget(target: string, request: LaunchRequest, extra: string[]): Promise<LaunchResult> {
    const field = request.launchPath?.trim() ? "launch_path" : "name";
    if (target.endsWith(".desktop") && await existingPath(target)) {
      const fields = parseDesktopEntry(await Deno.readTextFile(target));
      if (fields.exec === null) {
        throw new DriverError("launch_failed", `Desktop file ${JSON.stringify(target)} has no Exec key`, {
          hint: "pass the program to run as launch_path",
        });
      }
      try {
        return await this.#spawn([...execArgv(fields.exec), ...extra], fields.name ?? basename(target));
      } catch (error) {
        throw this.#spawnFailed(error);
      }
    }
    const argv = splitCommandLine(target);
    if (argv === null || argv.length === 0) {
      throw new DriverError(
        "invalid_arguments",
        `Cannot split ${JSON.stringify(target)}: a quote is left open`,
        {
          hint: "close the quote, or quote arguments with double quotes",
          field,
        },
      );
    }
    refuseRemoteDebugging(argv);
    try {
      return await this.#spawn(
        [...argv, ...extra],
        request.name?.trim() || basename(argv[programIndex(argv)]),
      );
    } catch (error) {
      const notFound = error instanceof Deno.errors.NotFound;
      if (!notFound && !(error instanceof Deno.errors.PermissionDenied)) throw this.#spawnFailed(error);
      const names = [request.name, target].filter((n): n is string => !!n?.trim());
      const entries = await this.#options.entries();
      for (const name of names) {
        const entry = resolveDesktopEntry(entries, name);
        if (entry === null) continue;
        try {
          return await this.#spawn([...entry.argv, ...extra], entry.name);
        } catch (entryError) {
          throw this.#spawnFailed(entryError);
        }
      }
      if (looksLikeUrl(target) || await existingPath(target)) {
        const command = await xdgOpen([target, ...(request.urls ?? [])], this.#childEnv());
        return { pid: null, name: target, startTime: null, command };
      }
      if (!notFound) throw this.#spawnFailed(error);
      throw new DriverError("app_not_found", `Cannot find an app called ${JSON.stringify(target)}`, {
        hint: "call list_apps for installed apps and their launch_path, or pass a full path",
        field,
      }, { cause: error });
    }
  }

  /** Spawns argv in its own session, never awaited except to reap it. Throws what spawn throws. */
  async #spawn(argv: string[], name: string): Promise<LaunchResult> {
    refuseRemoteDebugging(argv);
    const full = withAccessibilityFlag(argv);
    // detached: the child calls setsid(), so it has its own session and process group and
    // outlives the driver; unref() lets the driver exit while it runs.
    const child = new Deno.Command(full[0], {
      args: full.slice(1),
      env: this.#childEnv(),
      detached: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    const pid = child.pid;
    // Awaiting the status reaps the child when it exits, so it never lingers as a zombie.
    const exited = child.status.then(() => {}, () => {}).finally(() => this.#children.delete(pid));
    this.#children.set(pid, exited);
    return { pid, name, startTime: await startTime(pid), command: joinCommandLine(full) };
  }

  #childEnv(): Record<string, string> {
    return { ...this.#options.env, ...ACCESSIBILITY_ENV };
  }

  #spawnFailed(error: unknown): DriverError {
    if (error instanceof DriverError) return error;
    return new DriverError("launch_failed", `Cannot start the app: ${(error as Error).message}`, {
      hint: "check that the program is executable, or pass a different launch_path",
    }, { cause: error });
  }

  /** True when `pid` is a child this launcher started that has not been reaped yet. */
  owns(pid: number): boolean {
    return this.#children.has(pid);
  }

  /**
   * Waits until an own child has been reaped, for at most `timeoutMs`.
   *
   * @returns True when the child is gone (or was never ours), false on timeout.
   */
  async reaped(pid: number, timeoutMs: number): Promise<boolean> {
    const exited = this.#children.get(pid);
    if (exited === undefined) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const result = await Promise.race([exited.then(() => true), timeout]);
    clearTimeout(timer);
    return result;
  }
}
