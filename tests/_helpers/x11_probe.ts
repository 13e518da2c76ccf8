/**
 * Reading X11 state the way a person at a terminal would, with the stock X utilities
 * (`xprop`, `xdotool`, `xwininfo`, `xdpyinfo`, ImageMagick `import`), so e2e tests can
 * check the driver's answers against the X server itself. Test-only: the driver never
 * runs these programs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv } from "./desktop_env.ts";

/** A screen rectangle. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An 8-bit RGB colour. */
export type Rgb = [number, number, number];

/** Runs a program on the test desktop and returns its stdout; fails the test if it fails. */
export async function x(program: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command(program, {
    args,
    env: desktopEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(10_000),
  }).output();
  const decoder = new TextDecoder();
  assert.ok(
    output.success,
    `${program} ${args.join(" ")} exited ${output.code}: ${decoder.decode(output.stderr).trim()}`,
  );
  return decoder.decode(output.stdout);
}

/** `_NET_ACTIVE_WINDOW` of the root window, or null when none is set. */
export async function activeWindow(): Promise<number | null> {
  const text = await x("xprop", "-root", "_NET_ACTIVE_WINDOW");
  const match = /window id # (0x[0-9a-f]+)/i.exec(text);
  return match && Number(match[1]) !== 0 ? Number(match[1]) : null;
}

/** The client area of a window in root coordinates, from `xwininfo`. */
export async function windowBox(xid: number): Promise<Box & { mapped: boolean }> {
  const text = await x("xwininfo", "-id", String(xid));
  const field = (name: string) => {
    const match = new RegExp(`${name}:\\s+(-?\\d+)`).exec(text);
    assert.ok(match, `xwininfo reports ${name}:\n${text}`);
    return Number(match[1]);
  };
  return {
    x: field("Absolute upper-left X"),
    y: field("Absolute upper-left Y"),
    width: field("Width"),
    height: field("Height"),
    mapped: /Map State: IsViewable/.test(text),
  };
}

/** The root window's `_NET_CLIENT_LIST` (managed windows), as numbers. */
export async function clientList(): Promise<number[]> {
  const text = await x("xprop", "-root", "_NET_CLIENT_LIST");
  return [...text.matchAll(/0x[0-9a-f]+/gi)].map((m) => Number(m[0]));
}

/** One screen pixel read by ImageMagick `import` from the root window. */
export async function screenPixel(px: number, py: number): Promise<Rgb> {
  const text = await x("import", "-window", "root", "-crop", `1x1+${px}+${py}`, "-depth", "8", "txt:-");
  const match = /#([0-9a-f]{6})/i.exec(text);
  assert.ok(match, `import printed a pixel: ${text}`);
  return parseColour(`#${match[1]}`);
}

/** `#rrggbb` to RGB. */
export function parseColour(hex: string): Rgb {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  assert.ok(match, `a #rrggbb colour: ${hex}`);
  return [parseInt(match[1], 16), parseInt(match[2], 16), parseInt(match[3], 16)];
}

/** The RGB of pixel (px, py) of tightly packed RGBA pixels. */
export function pixelAt(
  image: { width: number; height: number; data: Uint8Array },
  px: number,
  py: number,
): Rgb {
  assert.ok(px >= 0 && py >= 0 && px < image.width && py < image.height, `(${px}, ${py}) inside the image`);
  const i = (Math.round(py) * image.width + Math.round(px)) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]];
}

/** True when every channel differs by at most `tolerance`. */
export function sameColour(a: Rgb, b: Rgb, tolerance = 2): boolean {
  return a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
}

/** Polls `probe` until it returns a non-null value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
