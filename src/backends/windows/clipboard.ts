/**
 * The Windows clipboard: CF_UNICODETEXT text, images as CF_DIB (plus the registered
 * "PNG" format that browsers and Office offer and read), and file lists as CF_HDROP.
 *
 * Writes use a message-only window as the clipboard owner (SetClipboardData fails for a
 * NULL owner), destroyed right after: the data stays, and no app ever waits on a window
 * whose thread does not pump messages.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { decodePng, encodePng } from "../../lib/image/png.ts";
import { wstr } from "../../../ffi/_c.ts";
import { fromWide, handle, readWide, wideBuffer } from "../../../ffi/windows/_win.ts";
import { GMEM_MOVEABLE, kernel32 } from "../../../ffi/windows/kernel32.ts";
import { DROPFILES, shell32 } from "../../../ffi/windows/shell32.ts";
import { CF, HWND_MESSAGE, user32 } from "../../../ffi/windows/user32.ts";
import type { ClipboardBackend, ClipboardContent } from "../../ports/clipboard.ts";
import type { RawImage } from "../../ports/screen.ts";

const STANDARD_NAMES: Record<number, string> = {
  [CF.TEXT]: "CF_TEXT",
  [CF.BITMAP]: "CF_BITMAP",
  [CF.DIB]: "CF_DIB",
  [CF.UNICODETEXT]: "CF_UNICODETEXT",
  [CF.HDROP]: "CF_HDROP",
  [CF.LOCALE]: "CF_LOCALE",
  [CF.DIBV5]: "CF_DIBV5",
  7: "CF_OEMTEXT",
};

/** How long to wait for another app to close the clipboard. */
const OPEN_TIMEOUT_MS = 1_000;

/** Clipboard access through user32. */
export class Win32Clipboard implements ClipboardBackend {
  async read(options: { text: boolean; image: boolean }): Promise<ClipboardContent> {
    const raw = await withClipboard(null, () => {
      const types: string[] = [];
      for (
        let format = user32.symbols.EnumClipboardFormats(0);
        format !== 0;
        format = user32.symbols.EnumClipboardFormats(format)
      ) {
        types.push(formatName(format));
      }
      const text = options.text ? readGlobal(CF.UNICODETEXT, (p) => readWide(p)) : null;
      const dib = options.image
        ? readGlobal(
          CF.DIB,
          (p, size) => new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(p, size).slice(0)),
        )
        : null;
      return { types, text, dib };
    });
    const image = raw.dib ? dibToImage(raw.dib) : null;
    return { types: raw.types, text: raw.text, imagePng: image ? await encodePng(image) : null };
  }

  writeText(text: string): Promise<string[]> {
    return write([{ format: CF.UNICODETEXT, bytes: wstr(text) }], ["CF_UNICODETEXT"]);
  }

  writeImage(png: Uint8Array): Promise<string[]> {
    let image: RawImage;
    try {
      image = decodePng(png);
    } catch (error) {
      throw new DriverError("invalid_arguments", `Not a PNG image: ${(error as Error).message}`, {
        field: "image",
        hint: "pass base64 PNG bytes",
      }, { cause: error });
    }
    const pngFormat = user32.symbols.RegisterClipboardFormatW(wstr("PNG"));
    return write([
      { format: CF.DIB, bytes: imageToDib(image) },
      ...(pngFormat ? [{ format: pngFormat, bytes: new Uint8Array(png) }] : []),
    ], ["CF_DIB", ...(pngFormat ? ["PNG"] : [])]);
  }

  writeFiles(paths: string[]): Promise<string[]> {
    const list = wstr(paths.join("\0") + "\0");
    const bytes = new Uint8Array(DROPFILES.size + list.length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, DROPFILES.size, true);
    view.setUint32(DROPFILES.fWide, 1, true);
    bytes.set(list, DROPFILES.size);
    return write([{ format: CF.HDROP, bytes }], ["CF_HDROP"]);
  }
}

function formatName(format: number): string {
  const standard = STANDARD_NAMES[format];
  if (standard) return standard;
  const buffer = wideBuffer(256);
  const length = user32.symbols.GetClipboardFormatNameW(format, buffer, buffer.length);
  return length > 0 ? fromWide(buffer, length) : `format ${format}`;
}

/** Opens the clipboard (retrying while another app holds it), runs `body`, closes it. */
async function withClipboard<T>(owner: Deno.PointerValue, body: () => T): Promise<T> {
  const deadline = performance.now() + OPEN_TIMEOUT_MS;
  while (!user32.symbols.OpenClipboard(owner)) {
    if (performance.now() > deadline) {
      throw new DriverError("clipboard_unavailable", "Another app keeps the clipboard open", {
        hint: "retry in a moment",
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  try {
    return body();
  } finally {
    user32.symbols.CloseClipboard();
  }
}

/** Reads a global-memory clipboard format through `read`; null when absent. */
function readGlobal<T>(format: number, read: (pointer: Deno.PointerObject, size: number) => T): T | null {
  if (!user32.symbols.IsClipboardFormatAvailable(format)) return null;
  const memory = user32.symbols.GetClipboardData(format);
  if (!memory) return null;
  const pointer = kernel32.symbols.GlobalLock(memory);
  if (!pointer) return null;
  try {
    return read(pointer, Number(kernel32.symbols.GlobalSize(memory)));
  } finally {
    kernel32.symbols.GlobalUnlock(memory);
  }
}

async function write(items: { format: number; bytes: Uint8Array }[], types: string[]): Promise<string[]> {
  const owner = user32.symbols.CreateWindowExW(
    0,
    wstr("STATIC"),
    wstr("cua-driver clipboard"),
    0,
    0,
    0,
    0,
    0,
    handle(HWND_MESSAGE),
    null,
    null,
    null,
  );
  try {
    await withClipboard(owner, () => {
      if (!user32.symbols.EmptyClipboard()) {
        throw new DriverError("clipboard_unavailable", "EmptyClipboard failed", {
          hint: "retry in a moment",
        });
      }
      for (const item of items) {
        const memory = kernel32.symbols.GlobalAlloc(GMEM_MOVEABLE, BigInt(item.bytes.length));
        if (!memory) {
          throw new DriverError("clipboard_unavailable", "GlobalAlloc failed", { hint: "free some memory" });
        }
        const pointer = kernel32.symbols.GlobalLock(memory);
        if (!pointer) {
          kernel32.symbols.GlobalFree(memory);
          throw new DriverError("clipboard_unavailable", "GlobalLock failed", { hint: "retry in a moment" });
        }
        new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, item.bytes.length)).set(item.bytes);
        kernel32.symbols.GlobalUnlock(memory);
        // On success the clipboard owns the memory; on failure it is ours to free.
        if (!user32.symbols.SetClipboardData(item.format, memory)) {
          kernel32.symbols.GlobalFree(memory);
          throw new DriverError(
            "clipboard_unavailable",
            `SetClipboardData(${formatName(item.format)}) failed`,
            {
              hint: "retry in a moment",
            },
          );
        }
      }
    });
  } finally {
    if (owner) user32.symbols.DestroyWindow(owner);
  }
  return types;
}

/** A CF_DIB (BITMAPINFOHEADER, optional masks/palette, pixels) as RGBA; null for formats it does not read. */
export function dibToImage(dib: Uint8Array): RawImage | null {
  if (dib.length < 40) return null;
  const view = new DataView(dib.buffer, dib.byteOffset, dib.byteLength);
  const headerSize = view.getUint32(0, true);
  const width = view.getInt32(4, true);
  const rawHeight = view.getInt32(8, true);
  const bitCount = view.getUint16(14, true);
  const compression = view.getUint32(16, true);
  const colorsUsed = view.getUint32(32, true);
  if (width <= 0 || rawHeight === 0 || (bitCount !== 24 && bitCount !== 32)) return null;
  const height = Math.abs(rawHeight);
  const masks = compression === 3 && headerSize === 40 ? 12 : 0; // BI_BITFIELDS after a v1 header
  const offset = headerSize + masks + colorsUsed * 4;
  const stride = Math.ceil((width * bitCount) / 32) * 4;
  if (dib.length < offset + stride * height) return null;
  const rgba = new Uint8Array(width * height * 4);
  const bytes = bitCount / 8;
  for (let y = 0; y < height; y++) {
    const sourceRow = rawHeight > 0 ? height - 1 - y : y;
    let s = offset + sourceRow * stride;
    let d = y * width * 4;
    for (let x = 0; x < width; x++, s += bytes, d += 4) {
      rgba[d] = dib[s + 2];
      rgba[d + 1] = dib[s + 1];
      rgba[d + 2] = dib[s];
      rgba[d + 3] = 255;
    }
  }
  return { width, height, data: rgba };
}

/** An RGBA image as a 32-bit bottom-up CF_DIB. */
export function imageToDib(image: RawImage): Uint8Array {
  const { width, height, data } = image;
  const dib = new Uint8Array(40 + width * height * 4);
  const view = new DataView(dib.buffer);
  view.setUint32(0, 40, true);
  view.setInt32(4, width, true);
  view.setInt32(8, height, true);
  view.setUint16(12, 1, true);
  view.setUint16(14, 32, true);
  view.setUint32(20, width * height * 4, true);
  for (let y = 0; y < height; y++) {
    let s = (height - 1 - y) * width * 4;
    let d = 40 + y * width * 4;
    for (let x = 0; x < width; x++, s += 4, d += 4) {
      dib[d] = data[s + 2];
      dib[d + 1] = data[s + 1];
      dib[d + 2] = data[s];
      dib[d + 3] = data[s + 3];
    }
  }
  return dib;
}

/** The paths of a CF_HDROP on the clipboard ([] when there is none). */
export async function clipboardFiles(): Promise<string[]> {
  return await withClipboard(null, () => {
    if (!user32.symbols.IsClipboardFormatAvailable(CF.HDROP)) return [];
    const drop = user32.symbols.GetClipboardData(CF.HDROP);
    if (!drop) return [];
    const count = shell32.symbols.DragQueryFileW(drop, 0xffffffff, null, 0);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const buffer = wideBuffer(1024);
      const length = shell32.symbols.DragQueryFileW(drop, i, buffer, buffer.length);
      out.push(fromWide(buffer, length));
    }
    return out;
  });
}
