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
import { classifyPosixDirectory, posixOwnedByUser } from "../posix/files.ts";
import { posixRun, posixSpawn } from "../posix/process.ts";
import { UnixSockets } from "../posix/unix_sockets.ts";
import type { SystemBackend } from "../types.ts";
import type { DarwinContext } from "./context.ts";
import { darwinPackages } from "./packages.ts";
import { processPath } from "./processes.ts";

/** The driver's cache directory on macOS (contract.md §5.3): `~/Library/Caches/cua-driver`. */
export function darwinCacheDir(): string {
  return join(Deno.env.get("HOME") ?? "/tmp", "Library", "Caches", "cua-driver");
}

/** Unix sockets with the macOS default address. */
class DarwinSockets extends UnixSockets {
  override defaultAddress(): string {
    return join(darwinCacheDir(), "cua-driver.sock");
  }
}

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

/** Creates the macOS system facility. Opens no window server connection. */
export function createDarwinSystem(ctx: DarwinContext): SystemBackend {
  return {
    findExecutable,
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
