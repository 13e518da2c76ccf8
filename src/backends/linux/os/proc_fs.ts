/**
 * Reads processes from Linux procfs (`/proc`): pids, `comm`, `cmdline` and `stat`.
 *
 * Every reader returns `null` for a process that has gone away (or that we may not
 * read) instead of throwing: processes exit between listing and reading all the time.
 *
 * @module
 */

/** The fields of `/proc/<pid>/stat` the driver uses. */
export interface ProcStat {
  pid: number;
  /** Process name (`comm`), at most 15 bytes, taken from between the outer parentheses. */
  comm: string;
  /** One-letter state: R, S, D, T, t, Z, X, I, ... */
  state: string;
  ppid: number;
  /** Field 22: start time in clock ticks since boot, kept as the decimal text. */
  startTime: string;
}

/** Where procfs is mounted; tests point this at a fixture tree. */
export const PROC_ROOT = "/proc";

/**
 * Parses the text of `/proc/<pid>/stat`.
 *
 * The second field is the process name in parentheses, and the name itself may contain
 * spaces and parentheses (`(a) b (c)`), so the name runs from the first `(` to the
 * **last** `)`; the remaining fields are space-separated after it.
 *
 * @param text The file's content.
 * @returns The parsed fields, or `null` when the text is not a stat line.
 * @example
 * ```ts
 * const stat = parseStat("42 (my (odd) name) S 1 42 42 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 12345 0 0");
 * // stat?.comm === "my (odd) name", stat?.startTime === "12345"
 * ```
 */
export function parseStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // Fields after the name start at field 3 (state); field N sits at index N - 3.
  const rest = text.slice(close + 1).trim().split(/\s+/);
  if (!Number.isInteger(pid) || rest.length < 20) return null;
  const startTime = rest[22 - 3];
  if (!/^\d+$/.test(startTime)) return null;
  return {
    pid,
    comm: text.slice(open + 1, close),
    state: rest[0],
    ppid: Number(rest[1]),
    startTime,
  };
}

/**
 * Lists the pids under `/proc`.
 *
 * @returns Pids in ascending order.
 */
export async function listPids(root: string = PROC_ROOT): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir(root)) {
    if (/^\d+$/.test(entry.name)) pids.push(Number(entry.name));
  }
  return pids.sort((a, b) => a - b);
}

async function readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/**
 * Reads and parses `/proc/<pid>/stat`.
 *
 * @returns The fields, or `null` when the process does not exist.
 */
export async function readStat(pid: number, root: string = PROC_ROOT): Promise<ProcStat | null> {
  const text = await readText(`${root}/${pid}/stat`);
  return text === null ? null : parseStat(text);
}

/**
 * Reads `/proc/<pid>/comm` without its trailing newline.
 *
 * @returns The name, or `null` when the process does not exist.
 */
export async function readComm(pid: number, root: string = PROC_ROOT): Promise<string | null> {
  const text = await readText(`${root}/${pid}/comm`);
  return text === null ? null : text.replace(/\n$/, "");
}

/**
 * Splits the NUL-separated content of `/proc/<pid>/cmdline` into argv.
 *
 * @returns argv; empty for kernel threads and zombies.
 */
export function parseCmdline(text: string): string[] {
  const argv = text.split("\0");
  while (argv.length > 0 && argv[argv.length - 1] === "") argv.pop();
  return argv;
}

/**
 * Reads `/proc/<pid>/cmdline` as argv.
 *
 * @returns argv (empty for kernel threads and zombies), or `null` when the process does not exist.
 */
export async function readCmdline(pid: number, root: string = PROC_ROOT): Promise<string[] | null> {
  const text = await readText(`${root}/${pid}/cmdline`);
  return text === null ? null : parseCmdline(text);
}

/** True for the stat states of a process that has exited: Z (zombie), X and x (dead). */
export function isDeadState(state: string): boolean {
  return state === "Z" || state === "X" || state === "x";
}

/**
 * Tells whether a process exists and has not exited.
 *
 * @returns `false` for a missing pid, a zombie or a dead process.
 */
export async function isAlive(pid: number, root: string = PROC_ROOT): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const stat = await readStat(pid, root);
  return stat !== null && !isDeadState(stat.state);
}

/**
 * Reads a process's start time (stat field 22, clock ticks since boot, as text).
 * Two processes that share a pid at different times have different start times.
 *
 * @returns The start time, or `null` when the process does not exist.
 */
export async function startTime(pid: number, root: string = PROC_ROOT): Promise<string | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return (await readStat(pid, root))?.startTime ?? null;
}

/**
 * Reads `/proc/<pid>/environ` (readable for one's own processes only).
 *
 * @returns The variables, or `null` when the process is gone or not ours.
 */
export async function readEnviron(
  pid: number,
  root: string = PROC_ROOT,
): Promise<Map<string, string> | null> {
  const text = await readText(`${root}/${pid}/environ`);
  if (text === null) return null;
  const env = new Map<string, string>();
  for (const entry of text.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}
