/**
 * The Windows {@linkcode SystemBackend}: programs through Deno.Command (with a job object
 * for programs that end with the driver), PATH + PATHEXT lookup, kernel32 for processes,
 * iphlpapi for TCP listeners, named pipes for the daemon.
 *
 * @module
 */
import {
  AF,
  ERROR_INSUFFICIENT_BUFFER,
  iphlpapi,
  TCP_ROW,
  TCP_TABLE_OWNER_PID_LISTENER,
} from "../../../ffi/windows/iphlpapi.ts";
import { kernel32 } from "../../../ffi/windows/kernel32.ts";
import type { DirectoryClass, SystemBackend } from "../../ports/system.ts";
import { INTEGRITY } from "../../../ffi/windows/advapi32.ts";
import { processIntegrity } from "./input/integrity.ts";
import { findOnPath } from "./launch.ts";
import { NamedPipes, windowsCacheDir } from "./pipes.ts";
import { windowsRun, windowsSpawn } from "./process.ts";
import { ownedByCurrentUser, processArgv } from "./process_info.ts";
import { processImagePath } from "./processes.ts";
import { readRegistryString } from "./registry.ts";

/** Pids listening on `port` (IPv4 and IPv6) from the extended TCP tables. */
function listenerPids(port: number): number[] | null {
  if (!iphlpapi.available()) return null;
  const pids: number[] = [];
  for (const [family, row] of [[AF.INET, TCP_ROW.v4], [AF.INET6, TCP_ROW.v6]] as const) {
    let size = new Uint32Array([16 * 1024]);
    let table = new Uint8Array(size[0]);
    let status = iphlpapi.symbols.GetExtendedTcpTable(
      table,
      size,
      0,
      family,
      TCP_TABLE_OWNER_PID_LISTENER,
      0,
    );
    if (status === ERROR_INSUFFICIENT_BUFFER) {
      table = new Uint8Array(size[0]);
      size = new Uint32Array([table.length]);
      status = iphlpapi.symbols.GetExtendedTcpTable(table, size, 0, family, TCP_TABLE_OWNER_PID_LISTENER, 0);
    }
    if (status !== 0) continue;
    const view = new DataView(table.buffer);
    const count = view.getUint32(0, true);
    for (let i = 0; i < count; i++) {
      const offset = 4 + i * row.size;
      const networkPort = view.getUint32(offset + row.port, true) & 0xffff;
      const hostPort = ((networkPort & 0xff) << 8) | (networkPort >> 8);
      if (hostPort === port) pids.push(view.getUint32(offset + row.pid, true));
    }
  }
  return pids;
}

/** How the driver treats a directory: the Windows tree and Program Files are system; drive roots and Users are shared. */
export function classifyWindowsDirectory(
  path: string,
  env: (n: string) => string | undefined = (n) => Deno.env.get(n),
): DirectoryClass {
  const normal = path.replace(/\//g, "\\").replace(/\\+$/, "").toLowerCase();
  const system = [
    env("SystemRoot") ?? "C:\\Windows",
    env("ProgramFiles") ?? "C:\\Program Files",
    env("ProgramFiles(x86)") ?? "C:\\Program Files (x86)",
  ]
    .map((p) => p.toLowerCase().replace(/\\+$/, ""));
  if (system.some((root) => normal === root || normal.startsWith(`${root}\\`))) return "system";
  const users = (env("SystemDrive") ?? "C:") + "\\users";
  if (
    /^[a-z]:$/.test(normal) || normal === users.toLowerCase() ||
    normal === (env("PUBLIC") ?? "").toLowerCase()
  ) {
    return "shared_root";
  }
  return "other";
}

/**
 * An executable by path or name: PATH with PATHEXT first, then the App Paths registry
 * key, where installers register programs that are not on PATH (chrome.exe, msedge.exe).
 */
export function findExecutable(name: string, searchPath?: string): string | null {
  const env = (n: string) =>
    n.toUpperCase() === "PATH" && searchPath !== undefined ? searchPath : Deno.env.get(n);
  const found = findOnPath(name, env);
  if (found || /[\\/]/.test(name)) return found;
  const exe = /\.exe$/i.test(name) ? name : `${name}.exe`;
  for (const root of ["CURRENT_USER", "LOCAL_MACHINE"] as const) {
    const path = readRegistryString(
      root,
      `Software\\Microsoft\\Windows\\CurrentVersion\\App Paths\\${exe}`,
      "",
    )
      ?.replace(/^"|"$/g, "");
    if (path && findOnPath(path, env)) return path;
  }
  return null;
}

/** Creates the Windows system facility. Opens nothing until used: usable without a desktop. */
export function createWindowsSystem(): SystemBackend {
  return {
    findExecutable: (name, searchPath) => Promise.resolve(findExecutable(name, searchPath)),
    run: windowsRun,
    spawn: windowsSpawn,
    processExecutable: (pid) => Promise.resolve(processImagePath(pid)),
    processCommandLine: (pid) => Promise.resolve(processArgv(pid)),
    ownsTcpListener: (pid, port) => {
      const pids = listenerPids(port);
      return Promise.resolve(pids === null ? null : pids.includes(pid));
    },
    isElevated: () => (processIntegrity(Deno.pid) ?? 0) >= INTEGRITY.HIGH,
    ownedByUser: (path) => Promise.resolve(ownedByCurrentUser(path)),
    classifyDirectory: (path) => classifyWindowsDirectory(path),
    cacheDir: windowsCacheDir,
    monotonicMs: () => Number(kernel32.symbols.GetTickCount64()),
    packages: null,
    sockets: new NamedPipes(),
  };
}
