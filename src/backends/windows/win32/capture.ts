/**
 * GDI capture: BitBlt from the screen DC (or PrintWindow of one window) into a
 * 32-bit top-down DIB, read back with GetDIBits as BGRX rows.
 *
 * @module
 */
import { bgrxImage, peekBgrx } from "../../../lib/image/bgrx_image.ts";
import { bitmapInfoHeader, DIB_RGB_COLORS, gdi32, ROP } from "../../../../ffi/windows/gdi32.ts";
import { PW_RENDERFULLCONTENT, user32 } from "../../../../ffi/windows/user32.ts";
import type { Rect } from "../../../ports/geometry.ts";
import type { RawImage } from "../../../ports/screen.ts";
import { hwnd } from "./hwnd.ts";

/** How the pixels were obtained. */
export type CaptureSource = "screen" | "print_window";

/**
 * Copies `rect` of the screen. Pixels of windows covering the rect are included (this is
 * what the user sees).
 *
 * @returns null when GDI refused (no desktop, rect outside every monitor)
 */
export function captureScreenRect(rect: Rect): RawImage | null {
  const screen = user32.symbols.GetDC(null);
  if (!screen) return null;
  try {
    return blit(
      screen,
      rect.width,
      rect.height,
      (memory) =>
        gdi32.symbols.BitBlt(
          memory,
          0,
          0,
          rect.width,
          rect.height,
          screen,
          rect.x,
          rect.y,
          ROP.SRCCOPY | ROP.CAPTUREBLT,
        ) !== 0,
    );
  } finally {
    user32.symbols.ReleaseDC(null, screen);
  }
}

/**
 * Asks the window to paint itself into a bitmap (PrintWindow with PW_RENDERFULLCONTENT):
 * the window's own pixels even when it is covered.
 *
 * @returns null when it refused or painted nothing but black (another process under Wine,
 *   some GPU-rendered windows)
 */
export function printWindow(windowId: number, width: number, height: number): RawImage | null {
  const window = user32.symbols.GetWindowDC(hwnd(windowId));
  if (!window) return null;
  try {
    const image = blit(
      window,
      width,
      height,
      (memory) => user32.symbols.PrintWindow(hwnd(windowId), memory, PW_RENDERFULLCONTENT) !== 0,
    );
    return image && !allBlack(image) ? image : null;
  } finally {
    user32.symbols.ReleaseDC(hwnd(windowId), window);
  }
}

function blit(
  source: Deno.PointerObject,
  width: number,
  height: number,
  draw: (memory: Deno.PointerObject) => boolean,
): RawImage | null {
  if (width <= 0 || height <= 0) return null;
  const memory = gdi32.symbols.CreateCompatibleDC(source);
  if (!memory) return null;
  const bitmap = gdi32.symbols.CreateCompatibleBitmap(source, width, height);
  if (!bitmap) {
    gdi32.symbols.DeleteDC(memory);
    return null;
  }
  try {
    const previous = gdi32.symbols.SelectObject(memory, bitmap);
    const drawn = draw(memory);
    gdi32.symbols.SelectObject(memory, previous);
    if (!drawn) return null;
    // Negative height: rows top-down, as every consumer expects.
    const header = bitmapInfoHeader(width, -height, 32);
    const info = new Uint8Array(44);
    info.set(header);
    const bgrx = new Uint8Array(width * height * 4);
    const lines = gdi32.symbols.GetDIBits(memory, bitmap, 0, height, bgrx, info, DIB_RGB_COLORS);
    if (lines !== height) return null;
    return bgrxImage(width, height, bgrx);
  } finally {
    gdi32.symbols.DeleteObject(bitmap);
    gdi32.symbols.DeleteDC(memory);
  }
}

/** True when every sampled pixel is black (PrintWindow's failure mode). */
function allBlack(image: RawImage): boolean {
  const data = peekBgrx(image) ?? image.data;
  const step = Math.max(4, Math.floor(data.length / 4096) & ~3);
  for (let i = 0; i < data.length; i += step) {
    if (data[i] | data[i + 1] | data[i + 2]) return false;
  }
  return true;
}
