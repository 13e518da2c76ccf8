/**
 * The Linux {@linkcode SystemBackend}: POSIX programs, sockets and files, `/proc` for
 * processes, and the distribution's package manager. The code that runs programs loads at
 * the first `run` or `spawn`.
 *
 * @module
 */
import { normalize } from "../../core/file_paths.ts";
import { findExecutable } from "../posix/find_executable.ts";
import { resolveProgram } from "../posix/program_path.ts";
import { classifyPosixDirectory, posixOwnedByUser } from "../posix/files.ts";
import { posixCacheDir, UnixSockets } from "../posix/unix_sockets.ts";
import type { SystemBackend } from "../types.ts";
import { linuxPackages } from "./packages.ts";
import {
  monotonicMs,
  ownsTcpListener,
  processCommandLine,
  processExecutable,
  processExecutableSync,
} from "./processes.ts";

/** Creates the Linux system facility. Opens nothing: usable without a desktop. */
export function createLinuxSystem(): SystemBackend {
  return {
    findExecutable,
    resolveProgram: (name) => resolveProgram(name),
    run: async (argv, options) => (await import("../posix/process.ts")).posixRun(argv, options),
    spawn: async (argv, options) => (await import("../posix/process.ts")).posixSpawn(argv, options),
    processExecutable: (pid) => processExecutable(pid),
    processExecutableSync: (pid) => processExecutableSync(pid),
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
