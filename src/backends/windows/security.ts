/**
 * Process tokens and security identifiers: one place that opens a process's token and
 * reads a token information class, and the SID and LocalFree'd string helpers the
 * integrity check, the pipe DACL and file ownership share.
 *
 * @module
 */
import { readWide } from "../../../ffi/windows/_win.ts";
import { advapi32, TOKEN_QUERY, TOKEN_USER } from "../../../ffi/windows/advapi32.ts";
import { kernel32, PROCESS } from "../../../ffi/windows/kernel32.ts";

/**
 * Reads `infoClass` of the token of process `pid` and passes the bytes to `read` (while the
 * token is open, since the result points into them), or null when any step fails.
 */
export function withTokenInformation<T>(
  pid: number,
  infoClass: number,
  read: (info: Uint8Array) => T | null,
): T | null {
  if (!advapi32.available()) return null;
  const process = kernel32.symbols.OpenProcess(PROCESS.QUERY_LIMITED_INFORMATION, 0, pid);
  if (!process) return null;
  try {
    const tokenCell = new BigUint64Array(1);
    if (!advapi32.symbols.OpenProcessToken(process, TOKEN_QUERY, tokenCell)) return null;
    const token = Deno.UnsafePointer.create(tokenCell[0]);
    try {
      const info = new Uint8Array(512);
      const length = new Uint32Array(1);
      if (!advapi32.symbols.GetTokenInformation(token, infoClass, info, info.length, length)) return null;
      return read(info);
    } finally {
      kernel32.symbols.CloseHandle(token);
    }
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

/** The SID pointer at the start of a SID_AND_ATTRIBUTES (TOKEN_USER, TOKEN_MANDATORY_LABEL). */
export function sidOf(info: Uint8Array): Deno.PointerValue {
  return Deno.UnsafePointer.create(new DataView(info.buffer, info.byteOffset).getBigUint64(0, true));
}

/**
 * Reads the wide string an API allocated with LocalAlloc into `cell`, then frees it.
 *
 * @returns null when the call (`ok`) failed
 */
export function takeLocalString(ok: boolean | number, cell: BigUint64Array): string | null {
  if (!ok) return null;
  const pointer = Deno.UnsafePointer.create(cell[0]);
  if (!pointer) return null;
  try {
    return readWide(pointer);
  } finally {
    kernel32.symbols.LocalFree(pointer);
  }
}

/** A SID as its string form ("S-1-5-21-…"), or null. */
export function sidString(sid: Deno.PointerValue): string | null {
  if (!sid) return null;
  const cell = new BigUint64Array(1);
  return takeLocalString(advapi32.symbols.ConvertSidToStringSidW(sid, cell), cell);
}

/** The driver's user SID as a string, or null. */
export function currentUserSid(): string | null {
  return withTokenInformation(Deno.pid, TOKEN_USER, (info) => sidString(sidOf(info)));
}
