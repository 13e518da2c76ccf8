/**
 * The Linux {@linkcode SystemBackend}: POSIX programs, sockets and files, `/proc` for
 * processes, and the distribution's package manager. The code that runs programs loads at
 * the first `run` or `spawn`.
 *
 * @module
 */
import { normalize } from "../../lib/file_paths.ts";
import { findExecutable } from "../posix/find_executable.ts";
import { resolveProgram } from "../posix/program_path.ts";
import { classifyPosixDirectory, posixOwnedByUser } from "../posix/files.ts";
import { posixCacheDir, UnixSockets } from "../posix/unix_sockets.ts";
import type { SystemBackend } from "../../ports/system.ts";
import { linuxPackages } from "./os/packages.ts";
import {
  monotonicMs,
  ownsTcpListener,
  processCommandLine,
  processExecutable,
  processExecutableSync,
  processOnDisplaySync,
} from "./os/processes.ts";

/** Creates the Linux system facility. Opens nothing: usable without a desktop. */
export function createLinuxSystem(): SystemBackend {
  return {
    findExecutable,
    resolveProgram: (name) => resolveProgram(name),
    run: async (argv, options) => (await import("../posix/process.ts")).posixRun(argv, options),
    spawn: async (argv, options) => (await import("../posix/process.ts")).posixSpawn(argv, options),
    processExecutable: (pid) => processExecutable(pid),
    processExecutableSync: (pid) => processExecutableSync(pid),
    // The driver's desktop is the DISPLAY it set for itself when it chose one (mod.ts).
    processOnDesktopSync: (pid) => {
      const display = Deno.env.get("DISPLAY");
      // A process whose environment cannot be read is not shown to be on it.
      return display ? (processOnDisplaySync(pid, display) ?? false) : null;
    },
    processCommandLine: (pid) => processCommandLine(pid),
    ownsTcpListener: (pid, port) => ownsTcpListener(pid, port),
    isElevated: () => Deno.uid() === 0,
    ownedByUser: posixOwnedByUser,
    classifyDirectory: (path) => classifyPosixDirectory(normalize(path).replace(/(.)\/+$/, "$1")),
    cacheDir: posixCacheDir,
    monotonicMs: () => monotonicMs(),
    packages: linuxPackages,
    sockets: new UnixSockets(),
  };
}
