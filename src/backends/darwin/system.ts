/**
 * The macOS {@linkcode SystemBackend}: POSIX programs, sockets and files (shared with
 * Linux), libproc and sysctl for processes, `~/Library/Caches/cua-driver` for the daemon,
 * and Homebrew as the package manager.
 *
 * @module
 */
import { join, normalize } from "node:path";
import { ClockId, Sysctl } from "../../../ffi/darwin/libsystem.ts";
import { findExecutable } from "../posix/find_executable.ts";
import { resolveProgram } from "../posix/program_path.ts";
import { classifyPosixDirectory, posixOwnedByUser } from "../posix/files.ts";
import { posixRun, posixSpawn } from "../posix/process.ts";
import type { SystemBackend } from "../../ports/system.ts";
import type { DarwinContext } from "./context.ts";
import { darwinPackages } from "./packages.ts";
import { processPath } from "./processes.ts";
import { darwinCacheDir, DarwinSockets } from "./sockets.ts";

/**
 * A process's argv from `sysctl(KERN_PROCARGS2)`: argc, the executable path, padding,
 * then argc NUL-terminated arguments (the environment follows). Null when unreadable.
 */
export function processArguments(ctx: DarwinContext, pid: number): string[] | null {
  const { system } = ctx.fw;
  const argmax = new Int32Array(1);
  const argmaxLength = new BigUint64Array([4n]);
  if (
    system.sysctl(
      new Int32Array([Sysctl.CTL_KERN, Sysctl.KERN_ARGMAX]),
      2,
      argmax,
      argmaxLength,
      null,
      0n,
    ) !== 0
  ) {
    return null;
  }
  const buffer = new Uint8Array(Math.max(4096, argmax[0]));
  const length = new BigUint64Array([BigInt(buffer.length)]);
  const mib = new Int32Array([Sysctl.CTL_KERN, Sysctl.KERN_PROCARGS2, pid]);
  if (system.sysctl(mib, 3, buffer, length, null, 0n) !== 0) return null;
  const bytes = buffer.subarray(0, Number(length[0]));
  if (bytes.length < 4) return null;
  const argc = new DataView(bytes.buffer, bytes.byteOffset).getInt32(0, true);
  let at = bytes.indexOf(0, 4); // end of the executable path
  if (at < 0) return null;
  while (at < bytes.length && bytes[at] === 0) at++; // padding
  const decoder = new TextDecoder();
  const argv: string[] = [];
  while (argv.length < argc && at < bytes.length) {
    const end = bytes.indexOf(0, at);
    const stop = end < 0 ? bytes.length : end;
    argv.push(decoder.decode(bytes.subarray(at, stop)));
    at = stop + 1;
  }
  return argv.length === argc ? argv : null;
}

/**
 * Whether `pid` owns the TCP socket listening on `port`, asked of lsof (macOS has no
 * /proc); null when lsof cannot tell.
 */
export async function ownsTcpListenerDarwin(pid: number, port: number): Promise<boolean | null> {
  const lsof = await findExecutable("lsof", "/usr/sbin:/usr/bin:/sbin:/bin");
  if (!lsof) return null;
  const out = await posixRun([lsof, "-nP", `-iTCP:${port}`, "-sTCP:LISTEN", "-t"]);
  if (out.code !== 0 && out.stdout.trim() === "") return out.code === 1 ? false : null;
  return out.stdout.split(/\s+/).includes(String(pid));
}

/**
 * Command names of browsers that macOS installs as app bundles, not on PATH, and the
 * executable inside each bundle (so `google-chrome` finds Google Chrome.app).
 */
const BUNDLED_PROGRAMS: Readonly<Record<string, readonly string[]>> = {
  "google-chrome": ["Google Chrome.app/Contents/MacOS/Google Chrome"],
  "google-chrome-stable": ["Google Chrome.app/Contents/MacOS/Google Chrome"],
  "chrome": ["Google Chrome.app/Contents/MacOS/Google Chrome"],
  "chromium": ["Chromium.app/Contents/MacOS/Chromium"],
  "chromium-browser": ["Chromium.app/Contents/MacOS/Chromium"],
  "microsoft-edge": ["Microsoft Edge.app/Contents/MacOS/Microsoft Edge"],
  "brave-browser": ["Brave Browser.app/Contents/MacOS/Brave Browser"],
};

/**
 * The executable `name` resolves to: PATH first (as on Linux), then, for a browser's
 * command name, its app bundle in /Applications or ~/Applications.
 */
export async function findExecutableDarwin(
  name: string,
  searchPath?: string,
  applicationDirs: readonly string[] = [
    "/Applications",
    join(Deno.env.get("HOME") ?? "/nonexistent", "Applications"),
  ],
): Promise<string | null> {
  const found = await findExecutable(name, searchPath);
  if (found || name.includes("/")) return found;
  for (const dir of applicationDirs) {
    for (const inside of BUNDLED_PROGRAMS[name] ?? []) {
      const path = join(dir, inside);
      const info = await Deno.stat(path).catch(() => null);
      if (info?.isFile && (info.mode === null || (info.mode & 0o111) !== 0)) return path;
    }
  }
  return null;
}

/** Creates the macOS system facility. Opens no window server connection. */
export function createDarwinSystem(ctx: DarwinContext): SystemBackend {
  return {
    findExecutable: (name, searchPath) => findExecutableDarwin(name, searchPath),
    resolveProgram: (name) => resolveProgram(name),
    run: posixRun,
    spawn: posixSpawn,
    processExecutable: (pid) => Promise.resolve(processPath(ctx, pid)),
    processCommandLine: (pid) => Promise.resolve(processArguments(ctx, pid)),
    ownsTcpListener: ownsTcpListenerDarwin,
    isElevated: () => ctx.fw.system.getuid() === 0,
    ownedByUser: posixOwnedByUser,
    classifyDirectory: (path) => classifyPosixDirectory(normalize(path).replace(/(.)\/+$/, "$1")),
    cacheDir: darwinCacheDir,
    monotonicMs: () => Math.round(Number(ctx.fw.system.clock_gettime_nsec_np(ClockId.CLOCK_MONOTONIC)) / 1e6),
    packages: darwinPackages,
    sockets: new DarwinSockets(),
  };
}
