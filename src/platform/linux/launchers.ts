/**
 * Launcher processes that are not the app: LibreOffice's `soffice` script execs
 * `oosplash`, which starts `soffice.bin` (the process that owns every window and the
 * accessibility tree) as its child, or hands the request to a `soffice.bin` already
 * running and exits. launch_app reports the real app's pid, and kill_app on a launcher
 * also ends the app it started.
 *
 * @module
 */
import * as proc from "./proc_fs.ts";

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

/** The command name of the app `pid` launches when it is a launcher, else null. */
export async function launchedAppName(pid: number): Promise<string | null> {
  const stat = await proc.readStat(pid);
  return stat ? LAUNCHERS.get(stat.comm) ?? null : null;
}

/** Live children of `pid` whose command name is `comm`. */
export async function childrenNamed(pid: number, comm: string): Promise<number[]> {
  const out: number[] = [];
  for (const child of await proc.listPids()) {
    const stat = await proc.readStat(child);
    if (stat && stat.ppid === pid && stat.comm === comm && !proc.isDeadState(stat.state)) out.push(child);
  }
  return out;
}

/**
 * The pid of the app behind `pid`: `pid` itself unless it is a launcher; then its child
 * app once it started, or, when the launcher handed off to an instance already running
 * and exited, that instance (the oldest of that name). Gives up after a while and
 * returns `pid`.
 */
export async function realAppPid(pid: number, signal?: AbortSignal): Promise<number> {
  const app = await launchedAppName(pid);
  if (app === null) return pid;
  const deadline = performance.now() + HANDOFF_MS;
  while (performance.now() < deadline && !signal?.aborted) {
    const [child] = await childrenNamed(pid, app);
    if (child !== undefined) return child;
    if (!(await proc.isAlive(pid))) return (await oldestNamed(app)) ?? pid;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return pid;
}

async function oldestNamed(comm: string): Promise<number | null> {
  let best: { pid: number; start: number } | null = null;
  for (const pid of await proc.listPids()) {
    const stat = await proc.readStat(pid);
    if (!stat || stat.comm !== comm || proc.isDeadState(stat.state)) continue;
    const start = Number(stat.startTime);
    if (best === null || start < best.start) best = { pid, start };
  }
  return best?.pid ?? null;
}
