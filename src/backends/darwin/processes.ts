/**
 * Processes through libproc: the pid list, names, executable paths, states and
 * start times.
 *
 * @module
 */
import {
  PROC_PIDPATHINFO_MAXSIZE,
  ProcBsdInfo,
  ProcPidInfo,
  ProcStatus,
} from "../../../ffi/darwin/libsystem.ts";
import { decodeUtf8 } from "../../../ffi/_c.ts";
import type { DarwinContext } from "./context.ts";

/** What proc_pidinfo(PROC_PIDTBSDINFO) says about a process. */
export interface BsdInfo {
  pid: number;
  ppid: number;
  uid: number;
  /** The short command name (MAXCOMLEN bytes). */
  comm: string;
  zombie: boolean;
  /** Start time: seconds and microseconds since 1970. */
  startSec: bigint;
  startUsec: bigint;
}

/** Every pid the kernel lists. */
export function listPids(ctx: DarwinContext): number[] {
  const { system } = ctx.fw;
  // The count can grow between the two calls: leave room.
  const estimate = Math.max(0, system.proc_listallpids(null, 0)) + 64;
  const buffer = new Int32Array(estimate);
  const count = system.proc_listallpids(buffer, buffer.byteLength);
  return [...buffer.subarray(0, Math.max(0, count))].filter((pid) => pid > 0);
}

/** A process's BSD info, or null when it does not exist (or belongs to a user we cannot see). */
export function bsdInfo(ctx: DarwinContext, pid: number): BsdInfo | null {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid > 0x7fffffff) return null;
  const buffer = new Uint8Array(ProcBsdInfo.size);
  const written = ctx.fw.system.proc_pidinfo(pid, ProcPidInfo.TBSDINFO, 0n, buffer, buffer.length);
  if (written < ProcBsdInfo.size) return null;
  const view = new DataView(buffer.buffer);
  return {
    pid: view.getUint32(ProcBsdInfo.pid, true),
    ppid: view.getUint32(ProcBsdInfo.ppid, true),
    uid: view.getUint32(ProcBsdInfo.uid, true),
    comm: decodeUtf8(buffer.subarray(ProcBsdInfo.comm, ProcBsdInfo.comm + 16)),
    zombie: view.getUint32(ProcBsdInfo.status, true) === ProcStatus.SZOMB,
    startSec: view.getBigUint64(ProcBsdInfo.startSec, true),
    startUsec: view.getBigUint64(ProcBsdInfo.startUsec, true),
  };
}

/** A process's name (proc_name: up to 32 bytes), or null. */
export function processName(ctx: DarwinContext, pid: number): string | null {
  const buffer = new Uint8Array(64);
  const written = ctx.fw.system.proc_name(pid, buffer, buffer.length);
  return written > 0 ? decodeUtf8(buffer.subarray(0, written)) : null;
}

/** A process's executable path, or null. */
export function processPath(ctx: DarwinContext, pid: number): string | null {
  const buffer = new Uint8Array(PROC_PIDPATHINFO_MAXSIZE);
  const written = ctx.fw.system.proc_pidpath(pid, buffer, buffer.length);
  return written > 0 ? decodeUtf8(buffer.subarray(0, written)) : null;
}

/** A process start time as "<seconds>.<microseconds>" since 1970, to tell reused pids apart. */
export function startTimeOf(info: BsdInfo): string {
  return `${info.startSec}.${info.startUsec.toString().padStart(6, "0")}`;
}
