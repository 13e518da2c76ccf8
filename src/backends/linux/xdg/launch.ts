/**
 * launch_app on Linux: resolves what the caller named to one program file (a path, a name
 * on PATH, a `.desktop` file or an installed app), checks it, and spawns that real file
 * with an explicit argv, detached from the driver. Nothing is ever split into words or
 * handed to a shell: a launch path with spaces is one file name, and arguments come only
 * from `additionalArguments` (and a desktop entry's own Exec).
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { type ResolvedProgram, resolveProgram } from "../../posix/program_path.ts";
import { readCallerFile } from "../../../kernel/safe_files.ts";
import type { LaunchProgram, LaunchRequest, LaunchResult } from "../../../ports/apps.ts";
import { ACCESSIBILITY_ENV } from "../desktop/a11y_env.ts";
import { basename, joinCommandLine } from "./command_line.ts";
import { type DesktopEntry, execArgv, parseDesktopEntry } from "./desktop_entries.ts";
import { currentApp, realAppPid } from "./launchers.ts";
import { refuseForbiddenProgram, refuseRemoteDebugging } from "./launch_guard.ts";
import { startTime } from "../os/proc_fs.ts";
import { findXdgOpen, looksLikeUrl, xdgOpen } from "./xdg_open.ts";

export { refuseRemoteDebugging };

/** Programs that need `--force-renderer-accessibility` to expose web content to AT-SPI. */
const CHROMIUM_LIKE = /chrome|chromium|electron|brave|edge/i;

/** Desktop entries are a few kilobytes; anything this large is not one. */
const DESKTOP_FILE_LIMIT = 1 << 20;

/** What {@linkcode Launcher} needs from its owner. */
export interface LauncherOptions {
  /** Variables added to the driver's own environment for launched apps (DISPLAY, DBUS_SESSION_BUS_ADDRESS). */
  env: Record<string, string>;
  /** Installed desktop entries, read when a name must be resolved. */
  entries(): Promise<DesktopEntry[]>;
  /** Runs before every launch (publishing the accessibility bus for Qt apps). */
  prepare?(): Promise<void>;
}

/** A program ready to run: the file, its arguments, extra environment, and a name to report. */
interface Plan {
  program: ResolvedProgram;
  args: string[];
  env: Record<string, string>;
  name: string;
  /** xdg-open plans hand each target to their own xdg-open process. */
  xdgOpen?: boolean;
  /** True when the program comes from an installed desktop entry (the system's configuration). */
  installed: boolean;
  /** The arguments the caller chose: its own, and the Exec of a `.desktop` file it named. */
  callerArgs: string[];
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

/** Variables that change which code a program loads, refused in an Exec `env` prefix. */
const LOADER_VARIABLES =
  /^(LD_|DYLD_)|(PATH|PRELOAD|MODULES?|MODULE_DIR)$|^(PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|NODE_OPTIONS|BASH_ENV|ENV)$/;

/**
 * Splits a desktop entry's `env K=V program args` prefix into variables and the command.
 * Any other `env` option is refused rather than interpreted.
 */
function withoutEnvPrefix(argv: readonly string[]): { env: Record<string, string>; argv: string[] } {
  const env: Record<string, string> = {};
  if (argv.length === 0 || basename(argv[0]) !== "env") return { env, argv: [...argv] };
  let i = 1;
  if (argv[i] === "--") i++;
  for (; i < argv.length; i++) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(argv[i]);
    if (match === null) break;
    if (LOADER_VARIABLES.test(match[1])) {
      throw new DriverError("launch_refused", `launch_app does not set ${match[1]} for a program`, {
        hint: "it changes which code the program loads; launch the program without it",
        field: "launch_path",
      });
    }
    env[match[1]] = match[2];
  }
  return { env, argv: argv.slice(i) };
}

/** URLs and paths are positional arguments: one that starts with "-" would be read as an option. */
function checkUrls(urls: readonly string[]): void {
  const option = urls.find((url) => url.trimStart().startsWith("-"));
  if (option !== undefined) {
    throw new DriverError("invalid_arguments", `URL ${JSON.stringify(option)} starts with "-"`, {
      hint: "pass a URL or an absolute path; options go in additional_arguments",
      field: "urls",
    });
  }
}

/** Launches apps and keeps reaping them while the driver runs. */
export class Launcher {
  readonly #options: LauncherOptions;
  /** Exit promises of children still running; awaiting one reaps the child. */
  readonly #children = new Map<number, Promise<unknown>>();
  /** Launchers this launcher started, with the command name of the app each runs. */
  readonly #launchers = new Map<number, string>();

  constructor(options: LauncherOptions) {
    this.#options = options;
  }

  /**
   * Launches an app: `launchPath` wins over `name`, which wins over `urls`. With a
   * program, `additionalArguments` and then `urls` are its arguments; without one, each
   * URL goes to `xdg-open`. The program is checked by the launch guard and by
   * `request.authorize`, then its real file is spawned.
   *
   * @throws {DriverError} `invalid_arguments` (nothing to launch, a URL that looks like
   *   an option), `launch_refused` (the guard), whatever `authorize` throws,
   *   `app_not_found`, `launch_failed`.
   */
  async launch(request: LaunchRequest): Promise<LaunchResult> {
    await this.#options.prepare?.().catch(() => {});
    const urls = request.urls ?? [];
    checkUrls(urls);
    const extra = [...(request.additionalArguments ?? []), ...urls];
    refuseRemoteDebugging(extra);
    const target = request.launchPath?.trim() || request.name?.trim() || "";
    let plan: Plan;
    if (target === "") {
      if (urls.length === 0) {
        throw new DriverError("invalid_arguments", "Nothing to launch", {
          hint: "pass launch_path, name or urls",
          field: "launch_path",
        });
      }
      plan = this.#xdgOpenPlan(urls);
    } else {
      plan = await this.#plan(target, request, extra);
    }
    refuseForbiddenProgram([plan.program.realPath, plan.program.path], plan.args, {
      mode: request.mode ?? "standard",
      installed: plan.installed,
      installedProgram: plan.installed || (await this.#installedPrograms()).has(plan.program.realPath),
      callerArgs: plan.callerArgs,
    });
    request.authorize?.(launchProgram(plan));
    if (plan.xdgOpen) {
      const command = await xdgOpen(plan.program.realPath, plan.args, this.#childEnv());
      return { pid: null, name: plan.name, startTime: null, command };
    }
    try {
      return await this.#spawn(plan);
    } catch (error) {
      if (error instanceof DriverError) throw error;
      throw new DriverError("launch_failed", `Cannot start the app: ${(error as Error).message}`, {
        hint: "check that the program is executable, or pass a different launch_path",
      }, { cause: error });
    }
  }

  /** Resolves a launch path or name to one program, in the documented order. */
  async #plan(target: string, request: LaunchRequest, extra: string[]): Promise<Plan> {
    const field = request.launchPath?.trim() ? "launch_path" : "name";
    if (target.endsWith(".desktop") && target.includes("/")) {
      const text = await readDesktopFile(target, field);
      if (text !== null) {
        const fields = parseDesktopEntry(text);
        if (fields.exec === null) {
          throw new DriverError("launch_failed", `Desktop file ${JSON.stringify(target)} has no Exec key`, {
            hint: "pass the program to run as launch_path",
          });
        }
        return this.#entryPlan(execArgv(fields.exec), fields.name ?? basename(target), extra, field, false);
      }
    }
    const program = resolveProgram(target, { path: this.#childEnv().PATH ?? Deno.env.get("PATH") });
    if (program !== null) {
      return {
        program,
        args: extra,
        env: {},
        name: request.name?.trim() || basename(target),
        installed: false,
        callerArgs: extra,
      };
    }
    const entries = await this.#options.entries();
    // list_apps reports an installed app's launch_path as its Exec line: accept it back verbatim.
    const byLaunchPath = entries.find((e) => e.launchPath === target && e.argv.length > 0);
    if (byLaunchPath !== undefined) {
      return this.#entryPlan(byLaunchPath.argv, byLaunchPath.name, extra, field, true);
    }
    for (const name of [request.name, target]) {
      if (!name?.trim()) continue;
      const entry = resolveDesktopEntry(entries, name);
      if (entry !== null) return this.#entryPlan(entry.argv, entry.name, extra, field, true);
    }
    if (looksLikeUrl(target) || await Deno.stat(target).then(() => true, () => false)) {
      return this.#xdgOpenPlan([target, ...(request.urls ?? [])]);
    }
    if (target.startsWith("/") && !/\s/.test(target)) {
      throw new DriverError("app_not_found", `Cannot launch ${JSON.stringify(target)}: no such file`, {
        hint: "check the path (it must name an existing program), or call list_apps for installed apps and " +
          "their launch_path",
        field,
      });
    }
    throw new DriverError("app_not_found", `Cannot find an app called ${JSON.stringify(target)}`, {
      hint: /\s/.test(target)
        ? "launch_path names one program (never a command line): pass its arguments in additional_arguments"
        : "call list_apps for installed apps and their launch_path, or pass the program's absolute path",
      field,
    });
  }

  /**
   * A desktop entry's Exec argv plus the caller's arguments. An installed entry's Exec is the
   * system's configuration; the Exec of a `.desktop` file the caller named is the caller's.
   */
  #entryPlan(
    argv: readonly string[],
    name: string,
    extra: string[],
    field: string,
    installed: boolean,
  ): Plan {
    const { env, argv: command } = withoutEnvPrefix(argv);
    const program = command.length
      ? resolveProgram(command[0], { path: this.#childEnv().PATH ?? Deno.env.get("PATH") })
      : null;
    if (program === null) {
      throw new DriverError("app_not_found", `The program of ${JSON.stringify(name)} is not installed`, {
        hint: "call list_apps for installed apps, or pass a full path as launch_path",
        field,
        program: command[0] ?? null,
      });
    }
    const args = [...command.slice(1), ...extra];
    return { program, args, env, name, installed, callerArgs: installed ? extra : args };
  }

  #xdgOpenPlan(targets: string[]): Plan {
    const program = findXdgOpen(this.#childEnv(), targets[0]);
    return {
      program,
      args: targets,
      env: {},
      name: targets[0],
      xdgOpen: true,
      // xdg-open is the desktop's own handler: what it opens is judged by its targets.
      installed: true,
      callerArgs: targets,
    };
  }

  /** Real paths of the programs installed desktop entries run (their Exec, after `env K=V`). */
  async #installedPrograms(): Promise<Set<string>> {
    const programs = new Set<string>();
    const path = this.#childEnv().PATH ?? Deno.env.get("PATH");
    for (const entry of await this.#options.entries().catch(() => [])) {
      if (entry.argv.length === 0 || entry.terminal) continue;
      let command: string[];
      try {
        command = withoutEnvPrefix(entry.argv).argv;
      } catch {
        continue;
      }
      const program = command.length ? resolveProgram(command[0], { path }) : null;
      if (program !== null) programs.add(program.realPath);
    }
    return programs;
  }

  /** Spawns the plan's real file in its own session, never awaited except to reap it. Throws what spawn throws. */
  async #spawn(plan: Plan): Promise<LaunchResult> {
    let args = plan.args;
    if (
      CHROMIUM_LIKE.test(basename(plan.program.realPath)) && !args.includes("--force-renderer-accessibility")
    ) {
      args = ["--force-renderer-accessibility", ...args];
    }
    // detached: the child calls setsid(), so it has its own session and process group and
    // outlives the driver; unref() lets the driver exit while it runs.
    const child = new Deno.Command(plan.program.realPath, {
      args,
      env: { ...this.#childEnv(), ...plan.env },
      detached: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    const pid = child.pid;
    // Awaiting the status reaps the child when it exits, so it never lingers as a zombie.
    const exited = child.status.then((status) => this.#remember(pid, status.code), () => {})
      .finally(() => this.#children.delete(pid));
    this.#children.set(pid, exited);
    // A launcher (LibreOffice's oosplash) is not the app: report the process that owns the windows.
    const app = await realAppPid(pid, this.#childEnv().DISPLAY);
    if (app.launcher !== null && app.app !== null) this.#launchers.set(app.launcher, app.app);
    return {
      pid: app.pid,
      name: plan.name,
      startTime: await startTime(app.pid),
      command: joinCommandLine([plan.program.realPath, ...args]),
      launcher: app.launcher,
    };
  }

  /**
   * The app a launcher started by this launcher runs now (see {@linkcode currentApp}), or
   * null when `launcher` is none of ours or runs no app at the moment.
   */
  async appBehind(launcher: number): Promise<number | null> {
    const app = this.#launchers.get(launcher);
    if (app === undefined) return null;
    return await currentApp(launcher, app, this.#childEnv().DISPLAY);
  }

  #childEnv(): Record<string, string> {
    return { ...this.#options.env, ...ACCESSIBILITY_ENV };
  }

  /** Exit codes of children that exited, newest last (a few: enough for the launch that asks). */
  readonly #exitCodes = new Map<number, number>();

  #remember(pid: number, code: number): void {
    this.#exitCodes.delete(pid);
    this.#exitCodes.set(pid, code);
    if (this.#exitCodes.size > 64) this.#exitCodes.delete(this.#exitCodes.keys().next().value!);
  }

  /** The exit code of a child this launcher started, once it has exited; null otherwise. */
  exitCode(pid: number): number | null {
    return this.#exitCodes.get(pid) ?? null;
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

/** A caller's `.desktop` file, or null when there is none at that path. */
async function readDesktopFile(path: string, field: string): Promise<string | null> {
  try {
    const { bytes } = await readCallerFile(path, { field, maxBytes: DESKTOP_FILE_LIMIT });
    return new TextDecoder().decode(bytes);
  } catch (error) {
    if (error instanceof DriverError && /^No such/.test(error.message)) return null;
    throw error;
  }
}

function launchProgram(plan: Plan): LaunchProgram {
  const { realPath, dev, ino } = plan.program;
  return { realPath, dev, ino, args: plan.args, callerArgs: plan.callerArgs };
}
