/**
 * Turns a CGImage's bitmap into the tightly packed, straight-alpha RGBA the core
 * expects: the 32-bit layouts the window server produces, and the deeper (10-bit,
 * 16-bit, float) and packed ones a wide-gamut or HDR display gives; any other layout
 * is a `capture_failed` error, never garbage.
 *
 * @module
 */
import { CGBitmapInfo } from "../../../ffi/darwin/core_graphics.ts";
import { DriverError } from "../../ports/errors.ts";
import type { RawImage } from "../../ports/screen.ts";

/** CGImageAlphaInfo values (CGImage.h). */
const Alpha = {
  None: 0,
  PremultipliedLast: 1,
  PremultipliedFirst: 2,
  Last: 3,
  First: 4,
  NoneSkipLast: 5,
  NoneSkipFirst: 6,
} as const;

/** The layout of one bitmap, as CGImage describes it. */
export interface BitmapLayout {
  width: number;
  height: number;
  bytesPerRow: number;
  bitsPerPixel: number;
  bitsPerComponent: number;
  bitmapInfo: number;
}

/** kCGImagePixelFormatInfo values (CGImage.h, bits 16-19 of CGBitmapInfo). */
const PixelFormat = { Packed: 0, RGB555: 1, RGB565: 2, RGB101010: 3, RGBCIF10: 4 } as const;

/** Reads pixel `index` of a row at `offset` as straight [r, g, b, a] in 0..1 (alpha as stored). */
type PixelReader = (view: DataView, offset: number) => [number, number, number, number];

function unsupported(layout: BitmapLayout, why: string): DriverError {
  return new DriverError(
    "capture_failed",
    `The captured image has a pixel layout the driver cannot read: ${why}`,
    {
      bits_per_pixel: layout.bitsPerPixel,
      bits_per_component: layout.bitsPerComponent,
      bitmap_info: layout.bitmapInfo,
      hint:
        "switch the display to a standard (8-bit) colour profile, or capture a window instead of the display",
    },
  );
}

function halfToFloat(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const fraction = half & 0x3ff;
  const sign = half & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** The reader for a layout, or a DriverError naming what it cannot read. */
function readerFor(layout: BitmapLayout): PixelReader {
  const { bitsPerPixel: bpp, bitsPerComponent: bpc, bitmapInfo } = layout;
  const alpha = bitmapInfo & CGBitmapInfo.AlphaInfoMask;
  const order = bitmapInfo & CGBitmapInfo.ByteOrderMask;
  const format = (bitmapInfo & CGBitmapInfo.PixelFormatMask) >> 16;
  const float = (bitmapInfo & CGBitmapInfo.FloatComponents) !== 0;
  const alphaFirst = alpha === Alpha.PremultipliedFirst || alpha === Alpha.First ||
    alpha === Alpha.NoneSkipFirst;
  const hasAlphaSlot = alpha !== Alpha.None;
  if (alpha > Alpha.NoneSkipFirst) throw unsupported(layout, `alpha info ${alpha}`);
  // Packed words: one 16- or 32-bit word per pixel holding every component.
  if (format === PixelFormat.RGB555 || format === PixelFormat.RGB565) {
    if (bpp !== 16) throw unsupported(layout, `a 16-bit packed format at ${bpp} bits per pixel`);
    const little = order === CGBitmapInfo.ByteOrder16Little;
    const wide = format === PixelFormat.RGB565;
    return (view, offset) => {
      const word = view.getUint16(offset, little);
      const r = wide ? (word >> 11) & 0x1f : (word >> 10) & 0x1f;
      const g = wide ? ((word >> 5) & 0x3f) / 63 : ((word >> 5) & 0x1f) / 31;
      return [r / 31, g, (word & 0x1f) / 31, 1];
    };
  }
  if (format === PixelFormat.RGB101010 || format === PixelFormat.RGBCIF10) {
    if (bpp !== 32 || bpc !== 10) throw unsupported(layout, `a 10-bit format at ${bpp} bits per pixel`);
    if (alpha !== Alpha.None && alpha !== Alpha.NoneSkipFirst && alpha !== Alpha.NoneSkipLast) {
      throw unsupported(layout, "10-bit components with alpha");
    }
    const little = order === CGBitmapInfo.ByteOrder32Little;
    const shift = alpha === Alpha.NoneSkipLast ? 2 : 0;
    return (view, offset) => {
      const word = view.getUint32(offset, little) >>> shift;
      return [((word >>> 20) & 0x3ff) / 1023, ((word >>> 10) & 0x3ff) / 1023, (word & 0x3ff) / 1023, 1];
    };
  }
  if (format !== PixelFormat.Packed) throw unsupported(layout, `pixel format ${format}`);
  // One component per bpc bits, in memory order.
  const count = hasAlphaSlot ? 4 : 3;
  if (bpp !== bpc * count) throw unsupported(layout, `${bpc}-bit components in ${bpp} bits per pixel`);
  let component: (view: DataView, offset: number) => number;
  if (bpc === 8 && !float) component = (view, offset) => view.getUint8(offset) / 255;
  else if (bpc === 16) {
    const little = order === CGBitmapInfo.ByteOrder16Little;
    if (order !== 0 && order !== CGBitmapInfo.ByteOrder16Little && order !== CGBitmapInfo.ByteOrder16Big) {
      throw unsupported(layout, "16-bit components in a 32-bit byte order");
    }
    component = float
      ? (view, offset) => halfToFloat(view.getUint16(offset, little))
      : (view, offset) => view.getUint16(offset, little) / 65535;
  } else if (bpc === 32 && float) {
    const little = order === CGBitmapInfo.ByteOrder32Little;
    component = (view, offset) => view.getFloat32(offset, little);
  } else throw unsupported(layout, `${bpc}-bit ${float ? "float" : "integer"} components`);
  const size = bpc / 8;
  // 8-bit components in a 32-bit little-endian word are stored in reverse.
  const reversed = bpc === 8 && order === CGBitmapInfo.ByteOrder32Little;
  const slots = !hasAlphaSlot ? ["r", "g", "b"] : alphaFirst ? ["a", "r", "g", "b"] : ["r", "g", "b", "a"];
  if (reversed) slots.reverse();
  const at = (name: string) => slots.indexOf(name) * size;
  const [r, g, b, a] = [at("r"), at("g"), at("b"), at("a")];
  return (view, offset) => [
    component(view, offset + r),
    component(view, offset + g),
    component(view, offset + b),
    a >= 0 ? component(view, offset + a) : 1,
  ];
}

/**
 * Converts a bitmap to packed RGBA: 32-bit layouts of 8-bit components (the window
 * server's usual BGRA through a fast path), 24-bit RGB, 16-bit integer or half-float
 * and 32-bit float components, the 10-bit formats (RGB101010, CIF10) and the 16-bit
 * packed ones (RGB555, RGB565).
 *
 * @throws {DriverError} `capture_failed` for any other layout, or too few bytes.
 */
export function toRgba(bytes: Uint8Array, layout: BitmapLayout): RawImage {
  const { width, height, bytesPerRow, bitsPerPixel, bitmapInfo } = layout;
  const reader = readerFor(layout);
  const pixelBytes = bitsPerPixel / 8;
  if (bytes.length < bytesPerRow * (height - 1) + width * pixelBytes) {
    throw new DriverError(
      "capture_failed",
      `The captured bitmap of ${bytes.length} bytes is short for ${width}x${height}`,
      {
        hint: "capture again; the window may have changed size while it was captured",
      },
    );
  }
  const alpha = bitmapInfo & CGBitmapInfo.AlphaInfoMask;
  const premultiplied = alpha === Alpha.PremultipliedFirst || alpha === Alpha.PremultipliedLast;
  const opaque = alpha === Alpha.None || alpha === Alpha.NoneSkipFirst || alpha === Alpha.NoneSkipLast;
  const out = new Uint8Array(width * height * 4);
  const plain8 = layout.bitsPerComponent === 8 && bitsPerPixel === 32 &&
    (bitmapInfo & (CGBitmapInfo.PixelFormatMask | CGBitmapInfo.FloatComponents)) === 0;
  const little = (bitmapInfo & CGBitmapInfo.ByteOrderMask) === CGBitmapInfo.ByteOrder32Little;
  const alphaFirst = alpha === Alpha.PremultipliedFirst || alpha === Alpha.First ||
    alpha === Alpha.NoneSkipFirst;
  if (plain8 && little && alphaFirst && bytes.byteOffset % 4 === 0 && bytesPerRow % 4 === 0) {
    bgraWords(bytes, out, layout, opaque, premultiplied);
    return { width, height, data: out };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const byte = (value: number) => Math.max(0, Math.min(255, Math.round(value * 255))) || 0;
  for (let y = 0; y < height; y++) {
    let source = y * bytesPerRow;
    let target = y * width * 4;
    for (let x = 0; x < width; x++, source += pixelBytes, target += 4) {
      let [red, green, blue, alphaValue] = reader(view, source);
      if (opaque) alphaValue = 1;
      if (premultiplied && alphaValue > 0 && alphaValue < 1) {
        red /= alphaValue;
        green /= alphaValue;
        blue /= alphaValue;
      }
      out[target] = byte(red);
      out[target + 1] = byte(green);
      out[target + 2] = byte(blue);
      out[target + 3] = byte(alphaValue);
    }
  }
  return { width, height, data: out };
}

/**
 * The window server's usual layout (32-bit little-endian ARGB: B, G, R, A in memory),
 * converted a word at a time; only translucent premultiplied pixels take the slow path.
 */
function bgraWords(
  bytes: Uint8Array,
  out: Uint8Array,
  layout: BitmapLayout,
  opaque: boolean,
  premultiplied: boolean,
): void {
  const { width, height, bytesPerRow } = layout;
  const source = new Uint32Array(bytes.buffer, bytes.byteOffset, (bytesPerRow * (height - 1)) / 4 + width);
  const target = new Uint32Array(out.buffer);
  const stride = bytesPerRow / 4;
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    const to = y * width;
    for (let x = 0; x < width; x++) {
      const word = source[from + x];
      // A R G B (as a little-endian word) -> A B G R, i.e. R, G, B, A in memory.
      let rgba = (word & 0xff00ff00) | ((word & 0xff) << 16) | ((word >>> 16) & 0xff);
      if (opaque) rgba |= 0xff000000;
      else if (premultiplied) {
        const alpha = word >>> 24;
        if (alpha > 0 && alpha < 255) {
          const un = (shift: number) => Math.min(255, Math.round((((word >>> shift) & 0xff) * 255) / alpha));
          rgba = (alpha << 24) | (un(0) << 16) | (un(8) << 8) | un(16);
        }
      }
      target[to + x] = rgba >>> 0;
    }
  }
}
