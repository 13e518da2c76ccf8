/**
 * Launcher processes that are not the app: LibreOffice's `soffice` script execs
 * `oosplash`, which starts `soffice.bin` (the process that owns every window and the
 * accessibility tree) as its child, or hands the request to a `soffice.bin` already
 * running and exits. With a fresh user profile the first `soffice.bin` exits to restart
 * itself and `oosplash` starts a second one: the app behind a launcher is whichever
 * child it runs now, so callers follow the launcher ({@linkcode currentApp}) until the
 * app's window maps. kill_app on a launcher also ends the app it started.
 *
 * @module
 */
import * as proc from "../os/proc_fs.ts";

/**
 * Launcher command names (stat `comm`) and the command name of the app each starts.
 * `soffice` is the shell script that execs `oosplash` in the same process: read right
 * after the spawn, the pid can still carry the script's name.
 */
const LAUNCHERS: ReadonlyMap<string, string> = new Map([
  ["soffice", "soffice.bin"],
  ["oosplash", "soffice.bin"],
]);

/** How long a launcher gets to start (or find) its app. */
const HANDOFF_MS = 15_000;
const POLL_MS = 50;

/** A launched process and the app behind it. */
export interface LaunchedApp {
  /** The app's pid (the launched pid itself when it is no launcher, or the launcher while nothing runs yet). */
  pid: number;
  /** The launcher's pid, or null when the launched process is the app. */
  launcher: number | null;
  /** The app's command name when `launcher` is set. */
  app: string | null;
}

/** The command name of the app `pid` launches when it is a launcher, else null. */
export async function launchedAppName(pid: number): Promise<string | null> {
  const stat = await proc.readStat(pid);
  return stat ? LAUNCHERS.get(stat.comm) ?? null : null;
}

/** Live children of `pid` whose command name is `comm`, oldest first. */
export async function childrenNamed(pid: number, comm: string): Promise<number[]> {
  const found: { pid: number; start: number }[] = [];
  for (const child of await proc.listPids()) {
    const stat = await proc.readStat(child);
    if (stat && stat.ppid === pid && stat.comm === comm && !proc.isDeadState(stat.state)) {
      found.push({ pid: child, start: Number(stat.startTime) });
    }
  }
  return found.sort((a, b) => a.start - b.start || a.pid - b.pid).map((c) => c.pid);
}

/**
 * The app behind `pid`: `pid` itself unless it is a launcher; then its child app once it
 * started, or, when the launcher handed off to an instance already running and exited,
 * that instance. Gives up after a while and reports the launcher as the app.
 *
 * @param display The DISPLAY the app was launched on: a hand-off goes to an instance on it.
 */
export async function realAppPid(pid: number, display?: string, signal?: AbortSignal): Promise<LaunchedApp> {
  const app = await launchedAppName(pid);
  if (app === null) return { pid, launcher: null, app: null };
  const deadline = performance.now() + HANDOFF_MS;
  while (performance.now() < deadline && !signal?.aborted) {
    const current = await currentApp(pid, app, display);
    if (current !== null) return { pid: current, launcher: pid, app };
    if (!(await proc.isAlive(pid))) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { pid, launcher: pid, app };
}

/**
 * The app a launcher runs now: its newest live child named `app` (after a restart, the
 * second one); when the launcher has exited, the oldest instance of `app` on `display`
 * (the one it handed the request to). Null while the launcher lives between two
 * children, or when no instance runs.
 */
export async function currentApp(launcher: number, app: string, display?: string): Promise<number | null> {
  const children = await childrenNamed(launcher, app);
  if (children.length) return children[children.length - 1];
  if (await proc.isAlive(launcher)) return null;
  // Without a DISPLAY there is no instance to hand off to that is the launch's: an app of the
  // same name elsewhere on the machine (another user's, another desktop's) is not it.
  if (display === undefined) return null;
  return await oldestNamed(app, display);
}

async function oldestNamed(comm: string, display: string): Promise<number | null> {
  let best: { pid: number; start: number } | null = null;
  for (const pid of await proc.listPids()) {
    const stat = await proc.readStat(pid);
    if (!stat || stat.comm !== comm || proc.isDeadState(stat.state)) continue;
    if ((await proc.readEnviron(pid))?.get("DISPLAY") !== display) continue;
    const start = Number(stat.startTime);
    if (best === null || start < best.start) best = { pid, start };
  }
  return best?.pid ?? null;
}
