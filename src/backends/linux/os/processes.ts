/**
 * What Linux tells about a running process through `/proc`: its executable, its command
 * line, the TCP listeners it owns, and the machine's monotonic clock.
 *
 * @module
 */
import { PROC_ROOT, readCmdline } from "./proc_fs.ts";

/** The executable file of a process (`/proc/<pid>/exe`), or null when gone or unreadable. */
export async function processExecutable(pid: number, root: string = PROC_ROOT): Promise<string | null> {
  try {
    return await Deno.readLink(`${root}/${pid}/exe`);
  } catch {
    return null;
  }
}

/** {@linkcode processExecutable}, synchronously. */
export function processExecutableSync(pid: number, root: string = PROC_ROOT): string | null {
  try {
    return Deno.readLinkSync(`${root}/${pid}/exe`);
  } catch {
    return null;
  }
}

/** A display name without its screen number, local spellings made one (`unix:1.0` → `:1`). */
function displayKey(name: string): string | null {
  const match = /^(unix|[A-Za-z0-9][A-Za-z0-9.-]*)?:(\d+)(?:\.\d+)?$/.exec(name.trim());
  if (!match) return null;
  const host = match[1] === undefined || match[1] === "unix" ? "" : match[1].toLowerCase();
  return `${host}:${match[2]}`;
}

/**
 * Whether a process runs on the X display `display` (its environment's DISPLAY names the same
 * server), false for a process with no DISPLAY or another one, null when its environment
 * cannot be read.
 */
export function processOnDisplaySync(pid: number, display: string, root: string = PROC_ROOT): boolean | null {
  let environ: string;
  try {
    environ = Deno.readTextFileSync(`${root}/${pid}/environ`);
  } catch {
    return null;
  }
  const value = environ.split("\0").find((v) => v.startsWith("DISPLAY="))?.slice("DISPLAY=".length);
  const wanted = displayKey(display);
  return value !== undefined && wanted !== null && displayKey(value) === wanted;
}

/**
 * argv of a process, or null when it is gone or unreadable. Chromium rewrites its process
 * title so that the whole command line becomes one space-joined string; that is split again.
 */
export async function processCommandLine(pid: number, root: string = PROC_ROOT): Promise<string[] | null> {
  const argv = await readCmdline(pid, root);
  if (argv === null) return null;
  return argv.length === 1 && argv[0].includes(" --") ? argv[0].split(" ") : argv;
}

/** Socket inodes listening on `port` (IPv4 and IPv6), from /proc/net/tcp*. */
async function listeningInodes(port: number, root: string): Promise<Set<string>> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of [`${root}/net/tcp`, `${root}/net/tcp6`]) {
    let text = "";
    try {
      text = await Deno.readTextFile(table);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (field 9); st 0A is LISTEN.
      if (fields.length < 10 || fields[3] !== "0A") continue;
      if (fields[1].split(":")[1] === hexPort) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * Whether the process `pid` owns the socket listening on `port`.
 *
 * @returns true or false; null when it cannot be told (not allowed to read the fds).
 */
export async function ownsTcpListener(
  pid: number,
  port: number,
  root: string = PROC_ROOT,
): Promise<boolean | null> {
  const inodes = await listeningInodes(port, root);
  if (!inodes.size) return false;
  try {
    for await (const entry of Deno.readDir(`${root}/${pid}/fd`)) {
      const link = await Deno.readLink(`${root}/${pid}/fd/${entry.name}`).catch(() => "");
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match && inodes.has(match[1])) return true;
    }
    return false;
  } catch {
    return null;
  }
}

/** Milliseconds since boot (`/proc/uptime`, 10 ms steps); the process clock when unreadable. */
export function monotonicMs(root: string = PROC_ROOT): number {
  try {
    const uptime = Number(Deno.readTextFileSync(`${root}/uptime`).split(" ")[0]);
    if (Number.isFinite(uptime)) return Math.round(uptime * 1000);
  } catch {
    // No procfs.
  }
  return Math.round(performance.now());
}
