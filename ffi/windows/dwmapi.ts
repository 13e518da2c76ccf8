/**
 * dwmapi: the desktop window manager's view of a window (extended frame, cloaking).
 * Absent or E_NOTIMPL where no compositor runs (Wine, old Windows): callers fall back
 * to user32's rectangle.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** dwmapi symbols used by the driver. */
export const DWMAPI_SYMBOLS = {
  // HRESULT DwmGetWindowAttribute(HWND hwnd, DWORD dwAttribute, PVOID pvAttribute, DWORD cbAttribute)
  DwmGetWindowAttribute: { parameters: ["pointer", "u32", "buffer", "u32"], result: "i32" },
  // HRESULT DwmIsCompositionEnabled(BOOL *pfEnabled)
  DwmIsCompositionEnabled: { parameters: ["buffer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** dwmapi.dll, opened on first use. */
export const dwmapi = openLibrary("dwmapi", ["dwmapi.dll"], DWMAPI_SYMBOLS);

/** DWMWINDOWATTRIBUTE values the driver reads. */
export const DWMWA = { EXTENDED_FRAME_BOUNDS: 9, CLOAKED: 14 } as const;
