/**
 * kernel32: errors, processes (Toolhelp32, times, termination), global memory for the
 * clipboard, and waits. Sections follow the Win32 API reference.
 *
 * @module
 */
import { NativeError } from "../_errors.ts";
import { openLibrary } from "../_open.ts";
import { fromWide, wideBuffer } from "./_win.ts";

/** kernel32 symbols used by the driver. */
export const KERNEL32_SYMBOLS = {
  // --- Errors
  // DWORD GetLastError(void)
  GetLastError: { parameters: [], result: "u32" },
  // void SetLastError(DWORD dwErrCode)
  SetLastError: { parameters: ["u32"], result: "void" },
  // DWORD FormatMessageW(DWORD dwFlags, LPCVOID lpSource, DWORD dwMessageId, DWORD dwLanguageId,
  //   LPWSTR lpBuffer, DWORD nSize, va_list *Arguments)
  FormatMessageW: {
    parameters: ["u32", "pointer", "u32", "u32", "buffer", "u32", "pointer"],
    result: "u32",
  },

  // --- Processes and threads
  // DWORD GetCurrentProcessId(void)
  GetCurrentProcessId: { parameters: [], result: "u32" },
  // DWORD GetCurrentThreadId(void)
  GetCurrentThreadId: { parameters: [], result: "u32" },
  // HANDLE OpenProcess(DWORD dwDesiredAccess, BOOL bInheritHandle, DWORD dwProcessId)
  OpenProcess: { parameters: ["u32", "i32", "u32"], result: "pointer" },
  // BOOL CloseHandle(HANDLE hObject)
  CloseHandle: { parameters: ["pointer"], result: "i32" },
  // BOOL TerminateProcess(HANDLE hProcess, UINT uExitCode)
  TerminateProcess: { parameters: ["pointer", "u32"], result: "i32" },
  // BOOL GetExitCodeProcess(HANDLE hProcess, LPDWORD lpExitCode)
  GetExitCodeProcess: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL GetProcessTimes(HANDLE hProcess, LPFILETIME lpCreationTime, LPFILETIME lpExitTime,
  //   LPFILETIME lpKernelTime, LPFILETIME lpUserTime)
  GetProcessTimes: { parameters: ["pointer", "buffer", "buffer", "buffer", "buffer"], result: "i32" },
  // DWORD GetProcessId(HANDLE Process)
  GetProcessId: { parameters: ["pointer"], result: "u32" },
  // BOOL QueryFullProcessImageNameW(HANDLE hProcess, DWORD dwFlags, LPWSTR lpExeName, PDWORD lpdwSize)
  QueryFullProcessImageNameW: { parameters: ["pointer", "u32", "buffer", "buffer"], result: "i32" },
  // BOOL ProcessIdToSessionId(DWORD dwProcessId, DWORD *pSessionId)
  ProcessIdToSessionId: { parameters: ["u32", "buffer"], result: "i32" },
  // HANDLE CreateToolhelp32Snapshot(DWORD dwFlags, DWORD th32ProcessID)
  CreateToolhelp32Snapshot: { parameters: ["u32", "u32"], result: "pointer" },
  // BOOL Process32FirstW(HANDLE hSnapshot, LPPROCESSENTRY32W lppe)
  Process32FirstW: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL Process32NextW(HANDLE hSnapshot, LPPROCESSENTRY32W lppe)
  Process32NextW: { parameters: ["pointer", "buffer"], result: "i32" },
  // DWORD WaitForSingleObject(HANDLE hHandle, DWORD dwMilliseconds)
  WaitForSingleObject: { parameters: ["pointer", "u32"], result: "u32", nonblocking: true },

  // --- Files and pipes
  // HANDLE CreateFileW(LPCWSTR lpFileName, DWORD dwDesiredAccess, DWORD dwShareMode,
  //   LPSECURITY_ATTRIBUTES lpSecurityAttributes, DWORD dwCreationDisposition, DWORD dwFlagsAndAttributes,
  //   HANDLE hTemplateFile)
  CreateFileW: {
    parameters: ["buffer", "u32", "u32", "pointer", "u32", "u32", "pointer"],
    result: "pointer",
  },
  // BOOL ReadProcessMemory(HANDLE hProcess, LPCVOID lpBaseAddress, LPVOID lpBuffer, SIZE_T nSize,
  //   SIZE_T *lpNumberOfBytesRead)
  ReadProcessMemory: { parameters: ["pointer", "pointer", "buffer", "usize", "buffer"], result: "i32" },
  // BOOL WriteProcessMemory(HANDLE hProcess, LPVOID lpBaseAddress, LPCVOID lpBuffer, SIZE_T nSize,
  //   SIZE_T *lpNumberOfBytesWritten)
  WriteProcessMemory: { parameters: ["pointer", "pointer", "buffer", "usize", "buffer"], result: "i32" },
  // LPVOID VirtualAllocEx(HANDLE hProcess, LPVOID lpAddress, SIZE_T dwSize, DWORD flAllocationType,
  //   DWORD flProtect)
  VirtualAllocEx: { parameters: ["pointer", "pointer", "usize", "u32", "u32"], result: "pointer" },
  // BOOL VirtualFreeEx(HANDLE hProcess, LPVOID lpAddress, SIZE_T dwSize, DWORD dwFreeType)
  VirtualFreeEx: { parameters: ["pointer", "pointer", "usize", "u32"], result: "i32" },
  // BOOL IsWow64Process(HANDLE hProcess, PBOOL Wow64Process)
  IsWow64Process: { parameters: ["pointer", "buffer"], result: "i32" },
  // HLOCAL LocalFree(HLOCAL hMem)
  LocalFree: { parameters: ["pointer"], result: "pointer" },

  // --- Job objects (programs that end with the driver)
  // HANDLE CreateJobObjectW(LPSECURITY_ATTRIBUTES lpJobAttributes, LPCWSTR lpName)
  CreateJobObjectW: { parameters: ["pointer", "pointer"], result: "pointer" },
  // BOOL SetInformationJobObject(HANDLE hJob, JOBOBJECTINFOCLASS JobObjectInformationClass,
  //   LPVOID lpJobObjectInformation, DWORD cbJobObjectInformationLength)
  SetInformationJobObject: { parameters: ["pointer", "u32", "buffer", "u32"], result: "i32" },
  // BOOL AssignProcessToJobObject(HANDLE hJob, HANDLE hProcess)
  AssignProcessToJobObject: { parameters: ["pointer", "pointer"], result: "i32" },

  // --- Global memory (clipboard payloads)
  // HGLOBAL GlobalAlloc(UINT uFlags, SIZE_T dwBytes)
  GlobalAlloc: { parameters: ["u32", "usize"], result: "pointer" },
  // LPVOID GlobalLock(HGLOBAL hMem)
  GlobalLock: { parameters: ["pointer"], result: "pointer" },
  // BOOL GlobalUnlock(HGLOBAL hMem)
  GlobalUnlock: { parameters: ["pointer"], result: "i32" },
  // SIZE_T GlobalSize(HGLOBAL hMem)
  GlobalSize: { parameters: ["pointer"], result: "usize" },
  // HGLOBAL GlobalFree(HGLOBAL hMem)
  GlobalFree: { parameters: ["pointer"], result: "pointer" },

  // --- Consoles (a process is attached to at most one console at a time)
  // BOOL FreeConsole(void)
  FreeConsole: { parameters: [], result: "i32" },
  // BOOL AttachConsole(DWORD dwProcessId)
  AttachConsole: { parameters: ["u32"], result: "i32" },
  // HWND GetConsoleWindow(void)
  GetConsoleWindow: { parameters: [], result: "pointer" },
  // HANDLE GetStdHandle(DWORD nStdHandle)
  GetStdHandle: { parameters: ["u32"], result: "pointer" },
  // BOOL SetStdHandle(DWORD nStdHandle, HANDLE hHandle)
  SetStdHandle: { parameters: ["u32", "pointer"], result: "i32" },
  // BOOL GetConsoleScreenBufferInfo(HANDLE hConsoleOutput, PCONSOLE_SCREEN_BUFFER_INFO lpInfo)
  GetConsoleScreenBufferInfo: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL ReadConsoleOutputCharacterW(HANDLE hConsoleOutput, LPWSTR lpCharacter, DWORD nLength,
  //   COORD dwReadCoord, LPDWORD lpNumberOfCharsRead)   (COORD passed by value as one DWORD: X low, Y high)
  ReadConsoleOutputCharacterW: { parameters: ["pointer", "buffer", "u32", "u32", "buffer"], result: "i32" },
  // BOOL WriteConsoleInputW(HANDLE hConsoleInput, const INPUT_RECORD *lpBuffer, DWORD nLength,
  //   LPDWORD lpNumberOfEventsWritten)
  WriteConsoleInputW: { parameters: ["pointer", "buffer", "u32", "buffer"], result: "i32" },

  // --- System
  // void GetNativeSystemInfo(LPSYSTEM_INFO lpSystemInfo)
  GetNativeSystemInfo: { parameters: ["buffer"], result: "void" },
  // ULONGLONG GetTickCount64(void)
  GetTickCount64: { parameters: [], result: "u64" },
  // HMODULE GetModuleHandleW(LPCWSTR lpModuleName)
  GetModuleHandleW: { parameters: ["buffer"], result: "pointer" },
  // FARPROC GetProcAddress(HMODULE hModule, LPCSTR lpProcName)
  GetProcAddress: { parameters: ["pointer", "buffer"], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** kernel32.dll, opened on first use. */
export const kernel32 = openLibrary("kernel32", ["kernel32.dll"], KERNEL32_SYMBOLS);

/** Constants from <winnt.h>, <processthreadsapi.h>, <tlhelp32.h> and <winbase.h>. */
export const PROCESS = {
  TERMINATE: 0x0001,
  VM_OPERATION: 0x0008,
  VM_READ: 0x0010,
  VM_WRITE: 0x0020,
  QUERY_INFORMATION: 0x0400,
  SYNCHRONIZE: 0x00100000,
  QUERY_LIMITED_INFORMATION: 0x1000,
} as const;
/** VirtualAllocEx/VirtualFreeEx allocation types and page protection (<winnt.h>). */
export const MEM = { COMMIT: 0x1000, RESERVE: 0x2000, RELEASE: 0x8000 } as const;
export const PAGE_READWRITE = 0x04;
/** CreateToolhelp32Snapshot flags. */
export const TH32CS_SNAPPROCESS = 0x00000002;
/** A failed CreateToolhelp32Snapshot/CreateFile handle. */
export const INVALID_HANDLE_VALUE = -1n;
/** WaitForSingleObject results and the infinite timeout. */
export const WAIT = { OBJECT_0: 0, TIMEOUT: 0x102, FAILED: 0xffffffff, INFINITE: 0xffffffff } as const;
/** JobObjectExtendedLimitInformation, its size (x64) and the kill-on-close flag at LimitFlags (offset 16). */
export const JOB = {
  EXTENDED_LIMIT_INFORMATION: 9,
  EXTENDED_LIMIT_SIZE: 144,
  LIMIT_FLAGS: 16,
  KILL_ON_JOB_CLOSE: 0x2000,
} as const;
/** PROCESS_SET_QUOTA | PROCESS_TERMINATE, what AssignProcessToJobObject needs. */
export const PROCESS_JOB_ACCESS = 0x0100 | 0x0001;
/** GetStdHandle's STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE (as DWORDs). */
export const STD_HANDLES = [0xfffffff6, 0xfffffff5, 0xfffffff4] as const;
/** AttachConsole's ATTACH_PARENT_PROCESS. */
export const ATTACH_PARENT_PROCESS = 0xffffffff;
/** GENERIC_READ | GENERIC_WRITE, and FILE_SHARE_READ | FILE_SHARE_WRITE. */
export const GENERIC_READ_WRITE = 0xc0000000;
export const FILE_SHARE_READ_WRITE = 0x3;
/**
 * INPUT_RECORD (20 bytes) holding a KEY_EVENT_RECORD: EventType@0 (KEY_EVENT 1) bKeyDown@4
 * wRepeatCount@8 wVirtualKeyCode@10 wVirtualScanCode@12 UnicodeChar@14 dwControlKeyState@16.
 * CONSOLE_SCREEN_BUFFER_INFO (22 bytes): dwSize@0 (X, Y int16) dwCursorPosition@4 wAttributes@8
 * srWindow@10 (Left, Top, Right, Bottom int16) dwMaximumWindowSize@18.
 */
export const INPUT_RECORD = { size: 20, KEY_EVENT: 1 } as const;
/** dwControlKeyState bits. */
export const CONSOLE_KEY_STATE = {
  RIGHT_ALT: 0x1,
  LEFT_ALT: 0x2,
  RIGHT_CTRL: 0x4,
  LEFT_CTRL: 0x8,
  SHIFT: 0x10,
} as const;
/** CreateFileW's OPEN_EXISTING. */
export const OPEN_EXISTING = 3;
/** GlobalAlloc flags. */
export const GMEM_MOVEABLE = 0x0002;
/** GetExitCodeProcess's value for a running process. */
export const STILL_ACTIVE = 259;
/** Win32 error codes the driver tells apart. */
export const ERROR = {
  SUCCESS: 0,
  ACCESS_DENIED: 5,
  INVALID_HANDLE: 6,
  INVALID_PARAMETER: 87,
  INVALID_WINDOW_HANDLE: 1400,
  TIMEOUT: 1460,
} as const;

/**
 * PROCESSENTRY32W (568 bytes): dwSize@0 cntUsage@4 th32ProcessID@8 th32DefaultHeapID@16
 * th32ModuleID@24 cntThreads@28 th32ParentProcessID@32 pcPriClassBase@36 dwFlags@40 szExeFile@44 (260 WCHAR).
 */
export const PROCESSENTRY32W = { size: 568, pid: 8, threads: 28, parentPid: 32, exeFile: 44 } as const;

/** The system's message for a Win32 error code ("" when it has none). */
export function errorMessage(code: number): string {
  const FORMAT_MESSAGE_FROM_SYSTEM = 0x1000;
  const FORMAT_MESSAGE_IGNORE_INSERTS = 0x200;
  const buffer = wideBuffer(512);
  const length = kernel32.symbols.FormatMessageW(
    FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
    null,
    code,
    0,
    buffer,
    buffer.length,
    null,
  );
  return fromWide(buffer, length).trim();
}

/**
 * The Win32 choke point for BOOL/handle results: returns `result` when it is truthy,
 * else throws a {@linkcode NativeError} with `GetLastError`'s code and message.
 *
 * @throws {NativeError} when the call failed
 */
export function unwrapWin32<T extends number | bigint | Deno.PointerValue>(api: string, result: T): T {
  if (result !== 0 && result !== 0n && result !== null) return result;
  const code = kernel32.symbols.GetLastError();
  throw new NativeError(api, code, errorMessage(code) || undefined);
}

/** A {@linkcode NativeError} for `api` carrying the calling thread's last error, for the caller to throw. */
export function lastError(api: string): NativeError {
  const code = kernel32.symbols.GetLastError();
  return new NativeError(api, code, errorMessage(code) || undefined);
}

/** FILETIME (100 ns since 1601-01-01 UTC) in a 2-element Uint32Array → a Date. */
export function fileTimeToDate(filetime: Uint32Array): Date {
  const ticks = (BigInt(filetime[1]) << 32n) | BigInt(filetime[0]);
  const EPOCH_DIFFERENCE = 116444736000000000n; // 1601 → 1970 in 100 ns ticks
  return new Date(Number((ticks - EPOCH_DIFFERENCE) / 10000n));
}
