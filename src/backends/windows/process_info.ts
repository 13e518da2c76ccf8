/**
 * What Windows tells about a process and a file beyond the Toolhelp snapshot: another
 * process's command line (NtQueryInformationProcess, split like the C runtime does with
 * CommandLineToArgvW) and a file's owner compared with the driver's user.
 *
 * @module
 */
import { wstr } from "../../../ffi/_c.ts";
import { readWide, readWideLength } from "../../../ffi/windows/_win.ts";
import { advapi32, OWNER_SECURITY_INFORMATION, SE_FILE_OBJECT } from "../../../ffi/windows/advapi32.ts";
import { kernel32, PROCESS } from "../../../ffi/windows/kernel32.ts";
import {
  ntdll,
  PEB_LAYOUT,
  PROCESS_BASIC_INFORMATION,
  PROCESS_COMMAND_LINE_INFORMATION,
  STATUS_INFO_LENGTH_MISMATCH,
} from "../../../ffi/windows/ntdll.ts";
import { shell32 } from "../../../ffi/windows/shell32.ts";
import { currentUserSid, sidString } from "./security.ts";

/** The raw command line of a process, or null when it is gone or not readable. */
export function commandLineOf(pid: number): string | null {
  if (!ntdll.available()) return null;
  return fromCommandLineClass(pid) ?? fromPeb(pid);
}

/** ProcessCommandLineInformation (Windows 8.1+): one call, no access to the process's memory. */
function fromCommandLineClass(pid: number): string | null {
  const process = kernel32.symbols.OpenProcess(PROCESS.QUERY_LIMITED_INFORMATION, 0, pid);
  if (!process) return null;
  try {
    let buffer = new Uint8Array(4096);
    const needed = new Uint32Array(1);
    let status = ntdll.symbols.NtQueryInformationProcess(
      process,
      PROCESS_COMMAND_LINE_INFORMATION,
      buffer,
      buffer.length,
      needed,
    );
    if (status === STATUS_INFO_LENGTH_MISMATCH && needed[0] > buffer.length) {
      buffer = new Uint8Array(needed[0]);
      status = ntdll.symbols.NtQueryInformationProcess(
        process,
        PROCESS_COMMAND_LINE_INFORMATION,
        buffer,
        buffer.length,
        needed,
      );
    }
    if (status < 0) return null;
    const view = new DataView(buffer.buffer);
    const length = view.getUint16(0, true);
    const text = Deno.UnsafePointer.create(view.getBigUint64(8, true));
    return text ? readWideLength(text, length / 2) : "";
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

/** The command line from the process's PEB (older Windows, and Wine): three reads of its memory. */
function fromPeb(pid: number): string | null {
  const process = kernel32.symbols.OpenProcess(PROCESS.QUERY_INFORMATION | PROCESS.VM_READ, 0, pid);
  if (!process) return null;
  const read = (address: bigint, size: number): DataView | null => {
    const out = new Uint8Array(size);
    const got = new BigUint64Array(1);
    if (
      !kernel32.symbols.ReadProcessMemory(process, Deno.UnsafePointer.create(address), out, BigInt(size), got)
    ) return null;
    return new DataView(out.buffer);
  };
  try {
    const basic = new Uint8Array(PROCESS_BASIC_INFORMATION.size);
    if (
      ntdll.symbols.NtQueryInformationProcess(
        process,
        PROCESS_BASIC_INFORMATION.class,
        basic,
        basic.length,
        new Uint32Array(1),
      ) < 0
    ) {
      return null;
    }
    const peb = new DataView(basic.buffer).getBigUint64(PROCESS_BASIC_INFORMATION.peb, true);
    const parameters = read(peb + BigInt(PEB_LAYOUT.processParameters), 8)?.getBigUint64(0, true);
    if (!parameters) return null;
    const line = read(parameters + BigInt(PEB_LAYOUT.commandLine), 16);
    if (!line) return null;
    const length = line.getUint16(0, true);
    const text = read(line.getBigUint64(8, true), length);
    if (!text) return null;
    return String.fromCharCode(...new Uint16Array(text.buffer, 0, length / 2));
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

/** Splits a command line the way the C runtime does (CommandLineToArgvW). */
export function splitCommandLine(line: string): string[] {
  if (line.trim() === "") return [];
  const count = new Int32Array(1);
  const argv = shell32.symbols.CommandLineToArgvW(wstr(line), count);
  if (!argv) return [line];
  try {
    const view = new Deno.UnsafePointerView(argv);
    return Array.from({ length: count[0] }, (_, i) => readWide(view.getPointer(i * 8)));
  } finally {
    kernel32.symbols.LocalFree(argv);
  }
}

/** argv of a process, or null when it is gone or not readable. */
export function processArgv(pid: number): string[] | null {
  const line = commandLineOf(pid);
  return line === null ? null : splitCommandLine(line);
}

/** Whether the driver's user owns `path`; null when Windows does not say. */
export function ownedByCurrentUser(path: string): boolean | null {
  const user = currentUserSid();
  if (!user) return null;
  const owner = new BigUint64Array(1);
  const descriptor = new BigUint64Array(1);
  if (
    advapi32.symbols.GetNamedSecurityInfoW(
      wstr(path),
      SE_FILE_OBJECT,
      OWNER_SECURITY_INFORMATION,
      owner,
      null,
      null,
      null,
      descriptor,
    ) !==
      0
  ) return null;
  try {
    return sidString(Deno.UnsafePointer.create(owner[0])) === user;
  } finally {
    kernel32.symbols.LocalFree(Deno.UnsafePointer.create(descriptor[0]));
  }
}
