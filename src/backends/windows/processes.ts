/**
 * Processes through kernel32: the Toolhelp32 snapshot (pid, parent, executable name),
 * creation times (to tell a reused pid apart), liveness and termination.
 *
 * @module
 */
import { fromWide, wideBuffer } from "../../../ffi/windows/_win.ts";
import {
  fileTimeToDate,
  kernel32,
  PROCESS,
  PROCESSENTRY32W,
  STILL_ACTIVE,
  TH32CS_SNAPPROCESS,
} from "../../../ffi/windows/kernel32.ts";

/** One row of the process snapshot. */
export interface ProcessEntry {
  pid: number;
  parentPid: number;
  /** Executable file name ("notepad.exe"). */
  exeFile: string;
}

/** Every process, from one Toolhelp32 snapshot. */
export function processSnapshot(): ProcessEntry[] {
  const snapshot = kernel32.symbols.CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (!snapshot || BigInt(Deno.UnsafePointer.value(snapshot)) === 0xffffffffffffffffn) return [];
  const out: ProcessEntry[] = [];
  try {
    const entry = new Uint8Array(PROCESSENTRY32W.size);
    const view = new DataView(entry.buffer);
    view.setUint32(0, PROCESSENTRY32W.size, true);
    let more = kernel32.symbols.Process32FirstW(snapshot, entry);
    while (more) {
      const name = new Uint16Array(
        entry.buffer.slice(PROCESSENTRY32W.exeFile, PROCESSENTRY32W.exeFile + 520),
      );
      out.push({
        pid: view.getUint32(PROCESSENTRY32W.pid, true),
        parentPid: view.getUint32(PROCESSENTRY32W.parentPid, true),
        exeFile: fromWide(name),
      });
      more = kernel32.symbols.Process32NextW(snapshot, entry);
    }
  } finally {
    kernel32.symbols.CloseHandle(snapshot);
  }
  return out;
}

/** Opens a process for `access`; null when it does not exist or access is denied. */
function openProcess(pid: number, access: number): Deno.PointerValue {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return kernel32.symbols.OpenProcess(access, 0, pid);
}

/** The full path of a process's executable, or null. */
export function processImagePath(pid: number): string | null {
  const process = openProcess(pid, PROCESS.QUERY_LIMITED_INFORMATION);
  if (!process) return null;
  try {
    const buffer = wideBuffer(1024);
    const size = new Uint32Array([buffer.length]);
    if (!kernel32.symbols.QueryFullProcessImageNameW(process, 0, buffer, size)) return null;
    return fromWide(buffer, size[0]);
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

/** The executable's base name without ".exe" ("notepad"), or null when unknown. */
export function processName(pid: number): string | null {
  const path = processImagePath(pid);
  if (path) return baseName(path);
  const entry = processSnapshot().find((p) => p.pid === pid);
  return entry ? baseName(entry.exeFile) : null;
}

/** "C:\\windows\\notepad.exe" → "notepad". */
export function baseName(path: string): string {
  const file = path.split(/[\\/]/).pop() ?? path;
  return file.replace(/\.exe$/i, "");
}

/** True while the process exists and has not exited. */
export function isProcessAlive(pid: number): boolean {
  const process = openProcess(pid, PROCESS.QUERY_LIMITED_INFORMATION);
  if (!process) return processSnapshot().some((p) => p.pid === pid);
  try {
    const code = new Uint32Array(1);
    if (!kernel32.symbols.GetExitCodeProcess(process, code)) return true;
    return code[0] === STILL_ACTIVE;
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

/** The process creation time as an ISO string, or null. */
export function processStartTime(pid: number): string | null {
  const process = openProcess(pid, PROCESS.QUERY_LIMITED_INFORMATION);
  if (!process) return null;
  try {
    const creation = new Uint32Array(2);
    const unused = new Uint32Array(2);
    if (
      !kernel32.symbols.GetProcessTimes(process, creation, unused, new Uint32Array(2), new Uint32Array(2))
    ) {
      return null;
    }
    return fileTimeToDate(creation).toISOString();
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

/**
 * TerminateProcess.
 *
 * @returns "killed", "gone" when no such process exists, or "denied"
 */
export function terminateProcess(pid: number): "killed" | "gone" | "denied" {
  const process = openProcess(pid, PROCESS.TERMINATE | PROCESS.QUERY_LIMITED_INFORMATION);
  if (!process) return isProcessAlive(pid) ? "denied" : "gone";
  try {
    return kernel32.symbols.TerminateProcess(process, 1) ? "killed" : "denied";
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}
