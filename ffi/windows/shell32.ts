/**
 * shell32: launching through the shell (ShellExecuteExW: documents, URLs, `.lnk`
 * shortcuts), dropped-file lists (CF_HDROP) and known folders.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** shell32 symbols used by the driver. */
export const SHELL32_SYMBOLS = {
  // BOOL ShellExecuteExW(SHELLEXECUTEINFOW *pExecInfo)
  ShellExecuteExW: { parameters: ["buffer"], result: "i32" },
  // UINT DragQueryFileW(HDROP hDrop, UINT iFile, LPWSTR lpszFile, UINT cch)
  DragQueryFileW: { parameters: ["pointer", "u32", "buffer", "u32"], result: "u32" },
  // HRESULT SHGetKnownFolderPath(REFKNOWNFOLDERID rfid, DWORD dwFlags, HANDLE hToken, PWSTR *ppszPath)
  SHGetKnownFolderPath: { parameters: ["buffer", "u32", "pointer", "buffer"], result: "i32" },
  // LPWSTR *CommandLineToArgvW(LPCWSTR lpCmdLine, int *pNumArgs)  (LocalFree the result)
  CommandLineToArgvW: { parameters: ["buffer", "buffer"], result: "pointer" },
  // BOOL IsUserAnAdmin(void)
  IsUserAnAdmin: { parameters: [], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** shell32.dll, opened on first use. */
export const shell32 = openLibrary("shell32", ["shell32.dll"], SHELL32_SYMBOLS);

/**
 * SHELLEXECUTEINFOW (112 bytes): cbSize@0 fMask@4 hwnd@8 lpVerb@16 lpFile@24 lpParameters@32
 * lpDirectory@40 nShow@48 hInstApp@56 lpIDList@64 lpClass@72 hkeyClass@80 dwHotKey@88
 * hIcon/hMonitor@96 hProcess@104.
 */
export const SHELLEXECUTEINFOW = {
  size: 112,
  verb: 16,
  file: 24,
  parameters: 32,
  directory: 40,
  show: 48,
  hProcess: 104,
} as const;
/** ShellExecuteEx masks. */
export const SEE_MASK = { NOCLOSEPROCESS: 0x40, FLAG_NO_UI: 0x400, NOASYNC: 0x100 } as const;
/**
 * DROPFILES (20 bytes): pFiles@0 (offset of the file list) pt@4 fNC@12 fWide@16; the list of
 * NUL-terminated paths follows, ending with an empty string.
 */
export const DROPFILES = { size: 20, fWide: 16 } as const;
