/**
 * gdi32: memory device contexts, bitmaps and DIB read-back for screen capture.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** gdi32 symbols used by the driver. */
export const GDI32_SYMBOLS = {
  // HDC CreateCompatibleDC(HDC hdc)
  CreateCompatibleDC: { parameters: ["pointer"], result: "pointer" },
  // HBITMAP CreateCompatibleBitmap(HDC hdc, int cx, int cy)
  CreateCompatibleBitmap: { parameters: ["pointer", "i32", "i32"], result: "pointer" },
  // HGDIOBJ SelectObject(HDC hdc, HGDIOBJ h)
  SelectObject: { parameters: ["pointer", "pointer"], result: "pointer" },
  // BOOL BitBlt(HDC hdc, int x, int y, int cx, int cy, HDC hdcSrc, int x1, int y1, DWORD rop)
  BitBlt: {
    parameters: ["pointer", "i32", "i32", "i32", "i32", "pointer", "i32", "i32", "u32"],
    result: "i32",
  },
  // int GetDIBits(HDC hdc, HBITMAP hbm, UINT start, UINT cLines, LPVOID lpvBits, LPBITMAPINFO lpbmi, UINT usage)
  GetDIBits: { parameters: ["pointer", "pointer", "u32", "u32", "buffer", "buffer", "u32"], result: "i32" },
  // int SetDIBitsToDevice(HDC hdc, int xDest, int yDest, DWORD w, DWORD h, int xSrc, int ySrc,
  //   UINT StartScan, UINT cLines, const VOID *lpvBits, const BITMAPINFO *lpbmi, UINT ColorUse)
  SetDIBitsToDevice: {
    parameters: [
      "pointer",
      "i32",
      "i32",
      "u32",
      "u32",
      "i32",
      "i32",
      "u32",
      "u32",
      "buffer",
      "buffer",
      "u32",
    ],
    result: "i32",
  },
  // BOOL DeleteObject(HGDIOBJ ho)
  DeleteObject: { parameters: ["pointer"], result: "i32" },
  // BOOL DeleteDC(HDC hdc)
  DeleteDC: { parameters: ["pointer"], result: "i32" },
  // COLORREF GetPixel(HDC hdc, int x, int y)  (0x00BBGGRR)
  GetPixel: { parameters: ["pointer", "i32", "i32"], result: "u32" },
  // int GetDeviceCaps(HDC hdc, int index)
  GetDeviceCaps: { parameters: ["pointer", "i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** gdi32.dll, opened on first use. */
export const gdi32 = openLibrary("gdi32", ["gdi32.dll"], GDI32_SYMBOLS);

/** Raster operations. */
export const ROP = { SRCCOPY: 0x00cc0020, CAPTUREBLT: 0x40000000 } as const;
/** GetDIBits usage. */
export const DIB_RGB_COLORS = 0;
/** GetDeviceCaps indices. */
export const DEVCAP = { HORZRES: 8, VERTRES: 10, BITSPIXEL: 12, LOGPIXELSX: 88, VREFRESH: 116 } as const;
/** BI_RGB compression. */
export const BI_RGB = 0;

/**
 * A BITMAPINFOHEADER (40 bytes): biSize@0 biWidth@4 biHeight@8 biPlanes@12 biBitCount@14
 * biCompression@16 biSizeImage@20 biXPelsPerMeter@24 biYPelsPerMeter@28 biClrUsed@32 biClrImportant@36.
 * A negative height asks for top-down rows.
 */
export function bitmapInfoHeader(width: number, height: number, bitCount = 32): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(40);
  const view = new DataView(header.buffer);
  view.setUint32(0, 40, true);
  view.setInt32(4, width, true);
  view.setInt32(8, height, true);
  view.setUint16(12, 1, true);
  view.setUint16(14, bitCount, true);
  view.setUint32(16, BI_RGB, true);
  return header;
}
