/**
 * ntdll: process information the documented Win32 API does not expose (another
 * process's command line).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** ntdll symbols used by the driver. */
export const NTDLL_SYMBOLS = {
  // NTSTATUS NtQueryInformationProcess(HANDLE ProcessHandle, PROCESSINFOCLASS ProcessInformationClass,
  //   PVOID ProcessInformation, ULONG ProcessInformationLength, PULONG ReturnLength)
  NtQueryInformationProcess: { parameters: ["pointer", "u32", "buffer", "u32", "buffer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** ntdll.dll, opened on first use. */
export const ntdll = openLibrary("ntdll", ["ntdll.dll"], NTDLL_SYMBOLS);

/**
 * ProcessCommandLineInformation (Windows 8.1+): the buffer receives a UNICODE_STRING
 * (Length@0 u16 bytes, MaximumLength@2, Buffer@8 pointing into the same buffer).
 */
export const PROCESS_COMMAND_LINE_INFORMATION = 60;
/** STATUS_INFO_LENGTH_MISMATCH: the buffer is too small; ReturnLength says how much is needed. */
export const STATUS_INFO_LENGTH_MISMATCH = 0xc0000004 | 0;
/** ProcessBasicInformation: PROCESS_BASIC_INFORMATION (48 bytes on x64), PebBaseAddress@8. */
export const PROCESS_BASIC_INFORMATION = { class: 0, size: 48, peb: 8 } as const;
/** PEB.ProcessParameters@0x20; RTL_USER_PROCESS_PARAMETERS.CommandLine (UNICODE_STRING)@0x70: Length@0, Buffer@8. */
export const PEB_LAYOUT = { processParameters: 0x20, commandLine: 0x70 } as const;
