/**
 * Test fixtures for the image tests: deterministic images and an ImageMagick decoder.
 *
 * @module
 */
import type { RawImage } from "../../ports/screen.ts";

/** Deterministic xorshift32 bytes. */
export function randomBytes(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s;
  }
  return out;
}

/** Random pixels; opaque unless `alpha` is set, in which case alpha is random too. */
export function randomImage(width: number, height: number, alpha = false, seed?: number): RawImage {
  const data = randomBytes(width * height * 4, seed);
  if (!alpha) { for (let i = 3; i < data.length; i += 4) data[i] = 255; }
  return { width, height, data };
}

/**
 * A UI-like opaque image: light background gradient, a title bar, flat panels with
 * borders, and "text" rows of small dark glyph-like marks.
 */
export function uiImage(width: number, height: number): RawImage {
  const data = new Uint8Array(width * height * 4);
  const noise = randomBytes(width * height, 7);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      let r = 246 - (y * 24 / height) | 0, g = 245 - (y * 24 / height) | 0, b = 244 - (y * 20 / height) | 0;
      if (y < 24) [r, g, b] = [53, 132, 228];
      const inPanel = x > width / 8 && x < width * 7 / 8 && y > height / 6 && y < height * 5 / 6;
      if (inPanel) [r, g, b] = [255, 255, 255];
      const onBorder = inPanel && (Math.abs(x - width / 8) < 2 || Math.abs(y - height / 6) < 2);
      if (onBorder) [r, g, b] = [205, 199, 194];
      if (inPanel && y % 16 > 4 && y % 16 < 13 && x % 9 < 6 && noise[y * width + x] < 110) {
        [r, g, b] = [36, 31, 49];
      }
      data.set([r, g, b, 255], i);
    }
  }
  return { width, height, data };
}

/** True if ImageMagick's `convert` runs. */
export async function hasImageMagick(): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("convert", {
      args: ["-version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return success;
  } catch {
    return false;
  }
}

/** Decodes an encoded image with ImageMagick (`convert <format>:- rgba:-`) to 8-bit RGBA. */
export async function magickDecode(bytes: Uint8Array, format: "png" | "jpg"): Promise<Uint8Array> {
  const child = new Deno.Command("convert", {
    args: [`${format}:-`, "-depth", "8", "rgba:-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(bytes);
  await writer.close();
  const { success, stdout, stderr } = await child.output();
  if (!success) throw new Error(`convert failed: ${new TextDecoder().decode(stderr)}`);
  return stdout;
}

/** Mean absolute difference over the RGB channels of two RGBA buffers. */
export function meanRgbError(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) if (i % 4 !== 3) sum += Math.abs(a[i] - b[i]);
  return sum / (a.length * 0.75);
}
