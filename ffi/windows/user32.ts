/**
 * user32: windows, messages, input, monitors, clipboard and DPI. Sections follow the
 * Win32 API reference ("Windows and Messages", "Keyboard and Mouse Input", ...).
 *
 * Messages to another process's window go through `SendMessageTimeoutW` with
 * `SMTO_ABORTIFHUNG` (the `*Timeout` wrappers), so a hung app cannot hang the driver.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** user32 symbols used by the driver. */
export const USER32_SYMBOLS = {
  // --- Window enumeration and properties
  // BOOL EnumWindows(WNDENUMPROC lpEnumFunc, LPARAM lParam)
  EnumWindows: { parameters: ["function", "isize"], result: "i32" },
  // BOOL EnumChildWindows(HWND hWndParent, WNDENUMPROC lpEnumFunc, LPARAM lParam)
  EnumChildWindows: { parameters: ["pointer", "function", "isize"], result: "i32" },
  // int GetWindowTextW(HWND hWnd, LPWSTR lpString, int nMaxCount)
  GetWindowTextW: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  // int GetWindowTextLengthW(HWND hWnd)
  GetWindowTextLengthW: { parameters: ["pointer"], result: "i32" },
  // int GetClassNameW(HWND hWnd, LPWSTR lpClassName, int nMaxCount)
  GetClassNameW: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  // BOOL GetWindowRect(HWND hWnd, LPRECT lpRect)
  GetWindowRect: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL GetClientRect(HWND hWnd, LPRECT lpRect)
  GetClientRect: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL ClientToScreen(HWND hWnd, LPPOINT lpPoint)
  ClientToScreen: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL ScreenToClient(HWND hWnd, LPPOINT lpPoint)
  ScreenToClient: { parameters: ["pointer", "buffer"], result: "i32" },
  // DWORD GetWindowThreadProcessId(HWND hWnd, LPDWORD lpdwProcessId)
  GetWindowThreadProcessId: { parameters: ["pointer", "buffer"], result: "u32" },
  // BOOL IsWindow(HWND hWnd)
  IsWindow: { parameters: ["pointer"], result: "i32" },
  // BOOL IsWindowVisible(HWND hWnd)
  IsWindowVisible: { parameters: ["pointer"], result: "i32" },
  // BOOL IsWindowEnabled(HWND hWnd)
  IsWindowEnabled: { parameters: ["pointer"], result: "i32" },
  // BOOL IsIconic(HWND hWnd)
  IsIconic: { parameters: ["pointer"], result: "i32" },
  // BOOL IsZoomed(HWND hWnd)
  IsZoomed: { parameters: ["pointer"], result: "i32" },
  // ULONG_PTR GetClassLongPtrW(HWND hWnd, int nIndex)
  GetClassLongPtrW: { parameters: ["pointer", "i32"], result: "usize" },
  // LONG_PTR GetWindowLongPtrW(HWND hWnd, int nIndex)
  GetWindowLongPtrW: { parameters: ["pointer", "i32"], result: "isize" },
  // HWND GetWindow(HWND hWnd, UINT uCmd)
  GetWindow: { parameters: ["pointer", "u32"], result: "pointer" },
  // HWND GetAncestor(HWND hwnd, UINT gaFlags)
  GetAncestor: { parameters: ["pointer", "u32"], result: "pointer" },
  // HWND GetParent(HWND hWnd)
  GetParent: { parameters: ["pointer"], result: "pointer" },
  // HWND GetDesktopWindow(void)
  GetDesktopWindow: { parameters: [], result: "pointer" },
  // HWND GetShellWindow(void)
  GetShellWindow: { parameters: [], result: "pointer" },
  // HWND GetTopWindow(HWND hWnd)
  GetTopWindow: { parameters: ["pointer"], result: "pointer" },
  // int GetDlgCtrlID(HWND hWnd)
  GetDlgCtrlID: { parameters: ["pointer"], result: "i32" },
  // HWND FindWindowW(LPCWSTR lpClassName, LPCWSTR lpWindowName)
  FindWindowW: { parameters: ["buffer", "buffer"], result: "pointer" },
  // HWND WindowFromPoint(POINT Point)  (POINT by value in one register)
  WindowFromPoint: { parameters: ["u64"], result: "pointer" },
  // HWND ChildWindowFromPointEx(HWND hwnd, POINT pt, UINT flags)
  ChildWindowFromPointEx: { parameters: ["pointer", "u64", "u32"], result: "pointer" },
  // HWND RealChildWindowFromPoint(HWND hwndParent, POINT ptParentClientCoords)
  RealChildWindowFromPoint: { parameters: ["pointer", "u64"], result: "pointer" },

  // --- Arrangement and activation
  // BOOL SetWindowPos(HWND hWnd, HWND hWndInsertAfter, int X, int Y, int cx, int cy, UINT uFlags)
  SetWindowPos: { parameters: ["pointer", "pointer", "i32", "i32", "i32", "i32", "u32"], result: "i32" },
  // BOOL ShowWindow(HWND hWnd, int nCmdShow)
  ShowWindow: { parameters: ["pointer", "i32"], result: "i32" },
  // BOOL SetForegroundWindow(HWND hWnd)
  SetForegroundWindow: { parameters: ["pointer"], result: "i32" },
  // HWND GetForegroundWindow(void)
  GetForegroundWindow: { parameters: [], result: "pointer" },
  // BOOL BringWindowToTop(HWND hWnd)
  BringWindowToTop: { parameters: ["pointer"], result: "i32" },
  // BOOL AttachThreadInput(DWORD idAttach, DWORD idAttachTo, BOOL fAttach)
  AttachThreadInput: { parameters: ["u32", "u32", "i32"], result: "i32" },
  // BOOL AllowSetForegroundWindow(DWORD dwProcessId)
  AllowSetForegroundWindow: { parameters: ["u32"], result: "i32" },
  // HWND SetFocus(HWND hWnd)
  SetFocus: { parameters: ["pointer"], result: "pointer" },
  // BOOL GetGUIThreadInfo(DWORD idThread, PGUITHREADINFO pgui)
  GetGUIThreadInfo: { parameters: ["u32", "buffer"], result: "i32" },

  // --- Messages
  // BOOL PostMessageW(HWND hWnd, UINT Msg, WPARAM wParam, LPARAM lParam)
  PostMessageW: { parameters: ["pointer", "u32", "usize", "isize"], result: "i32" },
  // LRESULT SendMessageTimeoutW(HWND hWnd, UINT Msg, WPARAM wParam, LPARAM lParam, UINT fuFlags,
  //   UINT uTimeout, PDWORD_PTR lpdwResult)
  SendMessageTimeoutW: {
    parameters: ["pointer", "u32", "usize", "isize", "u32", "u32", "buffer"],
    result: "isize",
  },
  // The same function with a buffer for lParam (WM_GETTEXT, WM_SETTEXT, EM_GETSEL, ...).
  SendMessageTimeoutBufferW: {
    name: "SendMessageTimeoutW",
    parameters: ["pointer", "u32", "usize", "buffer", "u32", "u32", "buffer"],
    result: "isize",
  },
  // DWORD WaitForInputIdle(HANDLE hProcess, DWORD dwMilliseconds)
  WaitForInputIdle: { parameters: ["pointer", "u32"], result: "u32", nonblocking: true },

  // --- Keyboard and mouse input
  // UINT SendInput(UINT cInputs, LPINPUT pInputs, int cbSize)
  SendInput: { parameters: ["u32", "buffer", "i32"], result: "u32" },
  // BOOL GetCursorPos(LPPOINT lpPoint)
  GetCursorPos: { parameters: ["buffer"], result: "i32" },
  // BOOL SetCursorPos(int X, int Y)
  SetCursorPos: { parameters: ["i32", "i32"], result: "i32" },
  // SHORT VkKeyScanExW(WCHAR ch, HKL dwhkl)
  VkKeyScanExW: { parameters: ["u16", "pointer"], result: "i16" },
  // UINT MapVirtualKeyExW(UINT uCode, UINT uMapType, HKL dwhkl)
  MapVirtualKeyExW: { parameters: ["u32", "u32", "pointer"], result: "u32" },
  // HKL GetKeyboardLayout(DWORD idThread)
  GetKeyboardLayout: { parameters: ["u32"], result: "pointer" },
  // BOOL GetKeyboardState(PBYTE lpKeyState)
  GetKeyboardState: { parameters: ["buffer"], result: "i32" },
  // BOOL SetKeyboardState(LPBYTE lpKeyState)
  SetKeyboardState: { parameters: ["buffer"], result: "i32" },
  // UINT GetDoubleClickTime(void)
  GetDoubleClickTime: { parameters: [], result: "u32" },
  // SHORT GetAsyncKeyState(int vKey)
  GetAsyncKeyState: { parameters: ["i32"], result: "i16" },
  // int GetSystemMetrics(int nIndex)
  GetSystemMetrics: { parameters: ["i32"], result: "i32" },

  // --- Device contexts and painting
  // HDC GetDC(HWND hWnd)
  GetDC: { parameters: ["pointer"], result: "pointer" },
  // HDC GetWindowDC(HWND hWnd)
  GetWindowDC: { parameters: ["pointer"], result: "pointer" },
  // int ReleaseDC(HWND hWnd, HDC hDC)
  ReleaseDC: { parameters: ["pointer", "pointer"], result: "i32" },
  // BOOL PrintWindow(HWND hwnd, HDC hdcBlt, UINT nFlags)
  PrintWindow: { parameters: ["pointer", "pointer", "u32"], result: "i32" },

  // --- Monitors and DPI
  // BOOL EnumDisplayMonitors(HDC hdc, LPCRECT lprcClip, MONITORENUMPROC lpfnEnum, LPARAM dwData)
  EnumDisplayMonitors: { parameters: ["pointer", "pointer", "function", "isize"], result: "i32" },
  // BOOL GetMonitorInfoW(HMONITOR hMonitor, LPMONITORINFO lpmi)
  GetMonitorInfoW: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL EnumDisplaySettingsW(LPCWSTR lpszDeviceName, DWORD iModeNum, DEVMODEW *lpDevMode)
  EnumDisplaySettingsW: { parameters: ["buffer", "u32", "buffer"], result: "i32" },
  // BOOL SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT value)  (Windows 10 1703+)
  SetProcessDpiAwarenessContext: { parameters: ["pointer"], result: "i32", optional: true },
  // UINT GetDpiForWindow(HWND hwnd)  (Windows 10 1607+)
  GetDpiForWindow: { parameters: ["pointer"], result: "u32", optional: true },

  // --- Menus
  // HMENU GetMenu(HWND hWnd)
  GetMenu: { parameters: ["pointer"], result: "pointer" },
  // int GetMenuItemCount(HMENU hMenu)
  GetMenuItemCount: { parameters: ["pointer"], result: "i32" },
  // int GetMenuStringW(HMENU hMenu, UINT uIDItem, LPWSTR lpString, int cchMax, UINT flags)
  GetMenuStringW: { parameters: ["pointer", "u32", "buffer", "i32", "u32"], result: "i32" },
  // UINT GetMenuItemID(HMENU hMenu, int nPos)
  GetMenuItemID: { parameters: ["pointer", "i32"], result: "u32" },
  // HMENU GetSubMenu(HMENU hMenu, int nPos)
  GetSubMenu: { parameters: ["pointer", "i32"], result: "pointer" },
  // UINT GetMenuState(HMENU hMenu, UINT uId, UINT uFlags)
  GetMenuState: { parameters: ["pointer", "u32", "u32"], result: "u32" },
  // BOOL GetMenuItemRect(HWND hWnd, HMENU hMenu, UINT uItem, LPRECT lprcItem)
  GetMenuItemRect: { parameters: ["pointer", "pointer", "u32", "buffer"], result: "i32" },

  // --- Scroll bars
  // BOOL GetScrollInfo(HWND hwnd, int nBar, LPSCROLLINFO lpsi)
  GetScrollInfo: { parameters: ["pointer", "i32", "buffer"], result: "i32" },

  // --- Window creation (a message-only owner for the clipboard)
  // HWND CreateWindowExW(DWORD dwExStyle, LPCWSTR lpClassName, LPCWSTR lpWindowName, DWORD dwStyle, int X, int Y,
  //   int nWidth, int nHeight, HWND hWndParent, HMENU hMenu, HINSTANCE hInstance, LPVOID lpParam)
  CreateWindowExW: {
    parameters: [
      "u32",
      "buffer",
      "buffer",
      "u32",
      "i32",
      "i32",
      "i32",
      "i32",
      "pointer",
      "pointer",
      "pointer",
      "pointer",
    ],
    result: "pointer",
  },
  // BOOL DestroyWindow(HWND hWnd)
  DestroyWindow: { parameters: ["pointer"], result: "i32" },

  // --- Clipboard
  // BOOL OpenClipboard(HWND hWndNewOwner)
  OpenClipboard: { parameters: ["pointer"], result: "i32" },
  // BOOL CloseClipboard(void)
  CloseClipboard: { parameters: [], result: "i32" },
  // BOOL EmptyClipboard(void)
  EmptyClipboard: { parameters: [], result: "i32" },
  // HANDLE GetClipboardData(UINT uFormat)
  GetClipboardData: { parameters: ["u32"], result: "pointer" },
  // HANDLE SetClipboardData(UINT uFormat, HANDLE hMem)
  SetClipboardData: { parameters: ["u32", "pointer"], result: "pointer" },
  // UINT EnumClipboardFormats(UINT format)
  EnumClipboardFormats: { parameters: ["u32"], result: "u32" },
  // BOOL IsClipboardFormatAvailable(UINT format)
  IsClipboardFormatAvailable: { parameters: ["u32"], result: "i32" },
  // int GetClipboardFormatNameW(UINT format, LPWSTR lpszFormatName, int cchMaxCount)
  GetClipboardFormatNameW: { parameters: ["u32", "buffer", "i32"], result: "i32" },
  // UINT RegisterClipboardFormatW(LPCWSTR lpszFormat)
  RegisterClipboardFormatW: { parameters: ["buffer"], result: "u32" },
  // DWORD GetClipboardSequenceNumber(void)
  GetClipboardSequenceNumber: { parameters: [], result: "u32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** user32.dll, opened on first use. */
export const user32 = openLibrary("user32", ["user32.dll"], USER32_SYMBOLS);

/** Window messages (<winuser.h>). */
export const WM = {
  NULL: 0x0000,
  SETTEXT: 0x000c,
  GETTEXT: 0x000d,
  GETTEXTLENGTH: 0x000e,
  CLOSE: 0x0010,
  KEYDOWN: 0x0100,
  KEYUP: 0x0101,
  CHAR: 0x0102,
  SYSKEYDOWN: 0x0104,
  SYSKEYUP: 0x0105,
  UNICHAR: 0x0109,
  MOUSEMOVE: 0x0200,
  LBUTTONDOWN: 0x0201,
  LBUTTONUP: 0x0202,
  LBUTTONDBLCLK: 0x0203,
  RBUTTONDOWN: 0x0204,
  RBUTTONUP: 0x0205,
  MBUTTONDOWN: 0x0207,
  MBUTTONUP: 0x0208,
  MOUSEWHEEL: 0x020a,
  XBUTTONDOWN: 0x020b,
  XBUTTONUP: 0x020c,
  MOUSEHWHEEL: 0x020e,
  VSCROLL: 0x0115,
  HSCROLL: 0x0114,
} as const;

/** Button, edit, combo box, list box and trackbar control messages. */
export const CONTROL_MSG = {
  BM_GETCHECK: 0x00f0,
  BM_SETCHECK: 0x00f1,
  BM_CLICK: 0x00f5,
  EM_GETSEL: 0x00b0,
  EM_SETSEL: 0x00b1,
  EM_REPLACESEL: 0x00c2,
  EM_GETFIRSTVISIBLELINE: 0x00ce,
  CB_GETCOUNT: 0x0146,
  CB_GETCURSEL: 0x0147,
  CB_GETLBTEXT: 0x0148,
  CB_GETLBTEXTLEN: 0x0149,
  CB_SETCURSEL: 0x014e,
  CB_SHOWDROPDOWN: 0x014f,
  CB_GETDROPPEDSTATE: 0x0157,
  LB_GETCURSEL: 0x0188,
  LB_GETTOPINDEX: 0x018e,
  TBM_GETPOS: 0x0400,
  TBM_GETRANGEMIN: 0x0401,
  TBM_GETRANGEMAX: 0x0402,
  TBM_SETPOS: 0x0405,
  // Tree view (TV_FIRST 0x1100), <commctrl.h>
  TVM_EXPAND: 0x1102,
  TVM_GETITEMRECT: 0x1104,
  TVM_GETCOUNT: 0x1105,
  TVM_GETNEXTITEM: 0x110a,
  TVM_GETITEMW: 0x113e,
  // List view (LVM_FIRST 0x1000)
  LVM_GETITEMCOUNT: 0x1004,
  LVM_GETNEXTITEM: 0x100c,
  LVM_GETITEMRECT: 0x100e,
  LVM_GETTOPINDEX: 0x1027,
  LVM_GETHEADER: 0x101f,
  LVM_GETITEMSTATE: 0x102c,
  LVM_GETITEMTEXTW: 0x1073,
  // Header (HDM_FIRST 0x1200)
  HDM_GETITEMCOUNT: 0x1200,
  // Tab control (TCM_FIRST 0x1300)
  TCM_GETITEMCOUNT: 0x1304,
  TCM_GETITEMRECT: 0x130a,
  TCM_GETCURSEL: 0x130b,
  TCM_GETITEMW: 0x133c,
} as const;

/** TVM_GETNEXTITEM codes (TVGN_*), tree-item masks and states, list-view rectangles and states, tab masks. */
export const COMMON_CONTROL = {
  TVGN_ROOT: 0x0,
  TVGN_NEXT: 0x1,
  TVGN_CHILD: 0x4,
  TVGN_NEXTVISIBLE: 0x6,
  TVGN_CARET: 0x9,
  TVIF_TEXT: 0x1,
  TVIF_STATE: 0x8,
  TVIF_CHILDREN: 0x40,
  TVIS_SELECTED: 0x2,
  TVIS_EXPANDED: 0x20,
  LVIR_SELECTBOUNDS: 3,
  LVIS_FOCUSED: 0x1,
  LVIS_SELECTED: 0x2,
  TCIF_TEXT: 0x1,
} as const;

/** Key-state bits for mouse message wParam. */
export const MK = {
  LBUTTON: 0x1,
  RBUTTON: 0x2,
  SHIFT: 0x4,
  CONTROL: 0x8,
  MBUTTON: 0x10,
  XBUTTON1: 0x20,
  XBUTTON2: 0x40,
} as const;

/** SendMessageTimeout flags. */
export const SMTO = {
  NORMAL: 0,
  BLOCK: 1,
  ABORTIFHUNG: 2,
  NOTIMEOUTIFNOTHUNG: 8,
  ERRORONEXIT: 0x20,
} as const;

/** GetWindow commands. */
export const GW = { HWNDFIRST: 0, HWNDLAST: 1, HWNDNEXT: 2, HWNDPREV: 3, OWNER: 4, CHILD: 5 } as const;
/** GetAncestor flags. */
export const GA = { PARENT: 1, ROOT: 2, ROOTOWNER: 3 } as const;
/** GetWindowLongPtr indices. */
export const GWL = { STYLE: -16, EXSTYLE: -20, ID: -12 } as const;
/** GetClassLongPtr index of the class style, and the style bit that asks for double-click messages. */
export const GCL_STYLE = -26;
/** CS_DBLCLKS. */
export const CS_DBLCLKS = 0x8;
/** Window styles the driver reads. */
export const WS = {
  CHILD: 0x40000000,
  VISIBLE: 0x10000000,
  DISABLED: 0x08000000,
  POPUP: 0x80000000,
} as const;
/** The styles that give a window its own scroll bars. */
export const WS_SCROLL = { H: 0x00100000, V: 0x00200000 } as const;
/** Extended window styles the driver reads. */
export const WS_EX = {
  TOOLWINDOW: 0x80,
  APPWINDOW: 0x40000,
  NOACTIVATE: 0x08000000,
  TOPMOST: 0x8,
  TRANSPARENT: 0x20,
} as const;
/** SetWindowPos flags. */
export const SWP = {
  NOSIZE: 0x1,
  NOMOVE: 0x2,
  NOZORDER: 0x4,
  NOACTIVATE: 0x10,
  SHOWWINDOW: 0x40,
  NOOWNERZORDER: 0x200,
  ASYNCWINDOWPOS: 0x4000,
} as const;
/** ShowWindow commands. */
export const SW = {
  HIDE: 0,
  SHOWNORMAL: 1,
  SHOWMINIMIZED: 2,
  MAXIMIZE: 3,
  SHOWNOACTIVATE: 4,
  SHOW: 5,
  MINIMIZE: 6,
  RESTORE: 9,
} as const;
/** ChildWindowFromPointEx flags. */
export const CWP = { ALL: 0, SKIPINVISIBLE: 1, SKIPDISABLED: 2, SKIPTRANSPARENT: 4 } as const;
/** GetSystemMetrics indices. */
export const SM = {
  CXSCREEN: 0,
  CYSCREEN: 1,
  XVIRTUALSCREEN: 76,
  YVIRTUALSCREEN: 77,
  CXVIRTUALSCREEN: 78,
  CYVIRTUALSCREEN: 79,
  CMONITORS: 80,
  SWAPBUTTON: 23,
} as const;
/** DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 (a pseudo-handle, -4). */
export const DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 = -4n;
/** PrintWindow flag: capture DirectComposition/DWM content too (Windows 8.1+). */
export const PW_RENDERFULLCONTENT = 0x2;
/** MONITORINFOEXW (104 bytes): cbSize@0 rcMonitor@4 rcWork@20 dwFlags@36 szDevice@40 (32 WCHAR). */
export const MONITORINFOEXW = { size: 104, monitor: 4, work: 20, flags: 36, device: 40 } as const;
/** MONITORINFOF_PRIMARY. */
export const MONITORINFOF_PRIMARY = 1;
/**
 * DEVMODEW (220 bytes, display variant): dmSize@68 dmBitsPerPel@168 dmPelsWidth@172
 * dmPelsHeight@176 dmDisplayFrequency@184.
 */
export const DEVMODEW = { size: 220, dmSize: 68, pelsWidth: 172, pelsHeight: 176, frequency: 184 } as const;
/** ENUM_CURRENT_SETTINGS for EnumDisplaySettingsW. */
export const ENUM_CURRENT_SETTINGS = 0xffffffff;
/**
 * GUITHREADINFO (72 bytes): cbSize@0 flags@4 hwndActive@8 hwndFocus@16 hwndCapture@24
 * hwndMenuOwner@32 hwndMoveSize@40 hwndCaret@48 rcCaret@56.
 */
export const GUITHREADINFO = { size: 72, active: 8, focus: 16, capture: 24, caret: 48 } as const;

/** INPUT is 40 bytes on x64: type@0, then the union at 8 (MOUSEINPUT/KEYBDINPUT). */
export const INPUT_SIZE = 40;
/** INPUT types. */
export const INPUT_TYPE = { MOUSE: 0, KEYBOARD: 1 } as const;
/** KEYBDINPUT (at INPUT+8): wVk@0 wScan@2 dwFlags@4 time@8 dwExtraInfo@16. */
export const KEYEVENTF = { EXTENDEDKEY: 0x1, KEYUP: 0x2, UNICODE: 0x4, SCANCODE: 0x8 } as const;
/** MOUSEINPUT (at INPUT+8): dx@0 dy@4 mouseData@8 dwFlags@12 time@16 dwExtraInfo@24. */
export const MOUSEEVENTF = {
  MOVE: 0x0001,
  LEFTDOWN: 0x0002,
  LEFTUP: 0x0004,
  RIGHTDOWN: 0x0008,
  RIGHTUP: 0x0010,
  MIDDLEDOWN: 0x0020,
  MIDDLEUP: 0x0040,
  XDOWN: 0x0080,
  XUP: 0x0100,
  WHEEL: 0x0800,
  HWHEEL: 0x1000,
  VIRTUALDESK: 0x4000,
  ABSOLUTE: 0x8000,
} as const;
/** One wheel notch. */
export const WHEEL_DELTA = 120;
/** XBUTTON1/XBUTTON2 for mouseData and the high word of WM_XBUTTON* wParam. */
export const XBUTTON = { X1: 1, X2: 2 } as const;
/** MapVirtualKeyEx map types. */
export const MAPVK = { VK_TO_VSC: 0, VSC_TO_VK: 1, VK_TO_CHAR: 2 } as const;

/** Menu flags for GetMenuString/GetMenuState. */
export const MF = {
  BYPOSITION: 0x400,
  GRAYED: 0x1,
  DISABLED: 0x2,
  CHECKED: 0x8,
  POPUP: 0x10,
  SEPARATOR: 0x800,
} as const;
/** WM_COMMAND. */
export const WM_COMMAND = 0x0111;
/** SCROLLINFO (28 bytes): cbSize@0 fMask@4 nMin@8 nMax@12 nPage@16 nPos@20 nTrackPos@24. */
export const SCROLLINFO = { size: 28, SIF_ALL: 0x17 } as const;
/** Scroll bar ids and WM_HSCROLL/WM_VSCROLL requests. */
export const SB = { HORZ: 0, VERT: 1, THUMBPOSITION: 4, ENDSCROLL: 8 } as const;
/** HWND_MESSAGE: the parent of message-only windows. */
export const HWND_MESSAGE = -3n;
/** Standard clipboard formats. */
export const CF = { TEXT: 1, BITMAP: 2, DIB: 8, UNICODETEXT: 13, HDROP: 15, LOCALE: 16, DIBV5: 17 } as const;
