/**
 * The macOS {@linkcode AppBackend}: running apps from NSWorkspace, installed app
 * bundles from the Applications folders, processes from libproc, launching through
 * NSWorkspace (in the background: the user's frontmost app keeps focus) and killing.
 *
 * @module
 */
import { Signal } from "../../../ffi/darwin/libsystem.ts";
import { DriverError } from "../../ports/errors.ts";
import type { AppBackend, AppInfo, LaunchRequest, LaunchResult, ProcessInfo } from "../../ports/apps.ts";
import type { DarwinContext } from "./context.ts";
import { bsdInfo, listPids, processName, startTimeOf } from "./processes.ts";
import { bundlePathFor, launchBundle, runningApps } from "./workspace.ts";
import { settled } from "./settled.ts";

/** Where installed apps live, in lookup order (`~` is the user's home). */
export const APPLICATION_DIRS = [
  "/Applications",
  "/Applications/Utilities",
  "/System/Applications",
  "/System/Applications/Utilities",
  "~/Applications",
] as const;

/** Options for {@linkcode DarwinApps}. */
export interface DarwinAppsOptions {
  /** Folders searched for `.app` bundles (default {@linkcode APPLICATION_DIRS}). */
  applicationDirs?: readonly string[];
  /** How long kill() waits for the process to be gone (ms). */
  killWaitMs?: number;
}

/** An installed bundle found in an Applications folder. */
interface InstalledBundle {
  path: string;
  name: string;
  bundleId: string | null;
}

/** Processes and apps on macOS. */
export class DarwinApps implements AppBackend {
  readonly #ctx: DarwinContext;
  readonly #dirs: readonly string[];
  readonly #killWaitMs: number;

  constructor(ctx: DarwinContext, options: DarwinAppsOptions = {}) {
    this.#ctx = ctx;
    const home = Deno.env.get("HOME") ?? "";
    this.#dirs = (options.applicationDirs ?? APPLICATION_DIRS).map((dir) => dir.replace(/^~(?=\/|$)/, home));
    this.#killWaitMs = options.killWaitMs ?? 1000;
  }

  /**
   * Running apps (regular and accessory; background daemons are in listProcesses), then
   * installed bundles that are not running, with pid 0. Matches cua-driver's list_apps rows.
   */
  async listApps(): Promise<AppInfo[]> {
    const running = runningApps(this.#ctx).filter((app) => app.policy !== "prohibited");
    const runningPaths = new Set(running.map((app) => app.bundlePath).filter((p) => p !== null));
    const rows: AppInfo[] = running.map((app) => ({
      pid: app.pid,
      bundleId: app.bundleId,
      name: app.name,
      running: true,
      active: app.active,
      kind: app.policy,
      launchPath: app.bundlePath ?? app.executablePath,
      lastUsed: app.launchDate === null ? null : new Date(app.launchDate * 1000).toISOString(),
    }));
    for (const bundle of await this.#installed()) {
      if (runningPaths.has(bundle.path)) continue;
      rows.push({
        pid: 0,
        bundleId: bundle.bundleId,
        name: bundle.name,
        running: false,
        active: false,
        kind: "regular",
        launchPath: bundle.path,
        lastUsed: null,
      });
    }
    return rows;
  }

  async #installed(): Promise<InstalledBundle[]> {
    const found: InstalledBundle[] = [];
    for (const dir of this.#dirs) {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(dir));
      } catch {
        continue; // a folder that does not exist on this Mac
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (!entry.name.endsWith(".app")) continue;
        const path = `${dir}/${entry.name}`;
        found.push({ path, name: entry.name.slice(0, -4), bundleId: this.#bundleId(path) });
      }
    }
    return found;
  }

  #bundleId(path: string): string | null {
    const { cf, fw } = this.#ctx;
    using url = cf.fileUrl(path, true);
    using bundle = cf.own(fw.cf.CFBundleCreate(null, url.ref));
    return bundle ? cf.toString(fw.cf.CFBundleGetIdentifier(bundle.ref)) : null;
  }

  /** Every live process (zombies left out) with its name. */
  listProcesses(): Promise<ProcessInfo[]> {
    return settled(() => {
      const rows: ProcessInfo[] = [];
      for (const pid of listPids(this.#ctx)) {
        const info = bsdInfo(this.#ctx, pid);
        if (!info || info.zombie) continue;
        rows.push({ pid, name: processName(this.#ctx, pid) ?? info.comm });
      }
      return rows;
    });
  }

  /**
   * Launches an app in the background. `launchPath` may be an `.app` bundle or an
   * executable; `name` an app name ("TextEdit") or a bundle identifier ("com.apple.TextEdit").
   *
   * @throws {DriverError} `app_not_found` when nothing matches, `launch_failed` when macOS refuses.
   */
  async launch(request: LaunchRequest): Promise<LaunchResult> {
    const args = request.additionalArguments ?? [];
    const urls = request.urls ?? [];
    const path = request.launchPath ?? await this.#resolve(request.name ?? "");
    authorizeLaunch(request, path, [...args, ...urls]);
    if (!path.replace(/\/$/, "").endsWith(".app")) return this.#spawn(path, [...args, ...urls]);
    const launched = launchBundle(this.#ctx, path.replace(/\/$/, ""), args, urls);
    const info = bsdInfo(this.#ctx, launched.pid);
    return {
      pid: launched.pid,
      name: launched.name,
      startTime: info ? startTimeOf(info) : null,
      command: [path, ...args].join(" "),
    };
  }

  async #resolve(name: string): Promise<string> {
    if (!name.trim()) {
      throw new DriverError("invalid_arguments", "launch_app needs a name or a launch path", {
        field: "name",
        hint: 'pass name ("TextEdit" or "com.apple.TextEdit") or launch_path',
      });
    }
    const wanted = name.toLowerCase().replace(/\.app$/, "");
    const bundle = (await this.#installed()).find((b) =>
      b.name.toLowerCase() === wanted || b.bundleId?.toLowerCase() === wanted
    );
    if (bundle) return bundle.path;
    const byId = /^[\w-]+(\.[\w-]+)+$/.test(name) ? bundlePathFor(this.#ctx, name) : null;
    if (byId) return byId;
    throw new DriverError("app_not_found", `No installed app is called ${JSON.stringify(name)}`, {
      searched: this.#dirs,
      hint: "call list_apps for installed apps, or pass launch_path with the .app bundle",
    });
  }

  #spawn(path: string, args: string[]): LaunchResult {
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(path, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
    } catch (error) {
      throw new DriverError(
        error instanceof Deno.errors.NotFound ? "app_not_found" : "launch_failed",
        `Cannot start ${JSON.stringify(path)}: ${(error as Error).message}`,
        { path, hint: "pass an .app bundle or an executable file as launch_path" },
        { cause: error },
      );
    }
    child.unref();
    child.status.catch(() => {});
    const info = bsdInfo(this.#ctx, child.pid);
    return {
      pid: child.pid,
      name: path.split("/").pop() ?? path,
      startTime: info ? startTimeOf(info) : null,
      command: [path, ...args].join(" "),
    };
  }

  /**
   * Sends SIGKILL, then waits (bounded) until the process is gone or a zombie.
   *
   * @throws {DriverError} `invalid_arguments` for a bad pid, `permission_denied` for pid ≤ 1,
   *   the driver itself or another user's process, `process_not_found` when it is not running.
   */
  async kill(pid: number): Promise<void> {
    if (!Number.isSafeInteger(pid)) {
      throw new DriverError("invalid_arguments", `Invalid pid ${JSON.stringify(pid)}`, {
        field: "pid",
        hint: "pass a process id from list_apps",
      });
    }
    if (pid <= 1 || pid === Deno.pid) {
      throw new DriverError("permission_denied", `Refusing to kill pid ${pid}`, {
        hint: pid <= 1 ? "pass the pid of an app, not launchd" : "that pid is the driver itself",
      });
    }
    const info = bsdInfo(this.#ctx, pid);
    if (!info || info.zombie) {
      throw new DriverError("process_not_found", `No running process with pid ${pid}`, {
        hint: "call list_apps for current pids",
      });
    }
    if (this.#ctx.fw.system.kill(pid, Signal.SIGKILL) !== 0) {
      throw new DriverError("permission_denied", `Not allowed to kill pid ${pid}`, {
        hint: "the process belongs to another user; the driver can only kill its user's processes",
      });
    }
    const deadline = Date.now() + this.#killWaitMs;
    while (await this.isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  /** True while the process exists and is not a zombie. */
  isAlive(pid: number): Promise<boolean> {
    return settled(() => {
      const info = bsdInfo(this.#ctx, pid);
      return info !== null && !info.zombie;
    });
  }

  /** The process start time ("<seconds>.<microseconds>" since 1970), or null. */
  startTime(pid: number): Promise<string | null> {
    return settled(() => {
      const info = bsdInfo(this.#ctx, pid);
      return info ? startTimeOf(info) : null;
    });
  }
}

/**
 * Hands the bundle or executable about to start, by its real path, to the launch check
 * (bounded mode's manifest) before anything runs.
 *
 * @throws {DriverError} `app_not_found` when the path does not exist; whatever the check throws.
 */
function authorizeLaunch(request: LaunchRequest, path: string, args: string[]): void {
  if (!request.authorize) return;
  let realPath: string, info: Deno.FileInfo;
  try {
    realPath = Deno.realPathSync(path);
    info = Deno.statSync(realPath);
  } catch (error) {
    throw new DriverError("app_not_found", `Cannot find ${JSON.stringify(path)}`, {
      path,
      hint: "pass an .app bundle or an executable file as launch_path",
    }, { cause: error });
  }
  request.authorize({ realPath, dev: info.dev, ino: info.ino ?? 0, args });
}
