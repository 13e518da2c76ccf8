/**
 * What a background action must leave alone, read independently of the driver with
 * the stock X utilities (`xprop`, `xdotool`): the active window, the keyboard focus,
 * the real pointer and the stacking order. Also the catalog's own moves of that state
 * between cells (activate, raise, park the pointer), done with `xdotool`, never with
 * the driver under test.
 *
 * @module
 */
import { x } from "../_helpers/x11_probe.ts";

/** One independent reading of the desktop. */
export interface DesktopState {
  /** `_NET_ACTIVE_WINDOW`, or null when unset. */
  active: number | null;
  /** `xdotool getwindowfocus`: the window holding the core keyboard focus. */
  focus: number | null;
  /** The real (core) pointer, from `xdotool getmouselocation`. */
  pointer: { x: number; y: number };
  /** `_NET_CLIENT_LIST_STACKING`, bottom to top. */
  stacking: number[];
}

/** Runs a program on the test desktop; returns stdout, or throws with its stderr. */
export const run = x;

function windowIds(text: string): number[] {
  return [...text.matchAll(/0x[0-9a-f]+/gi)].map((m) => Number(m[0]));
}

/** Reads the desktop with four independent subprocesses, in parallel. */
export async function readDesktop(): Promise<DesktopState> {
  const [active, focus, pointer, stacking] = await Promise.all([
    run("xprop", "-root", "_NET_ACTIVE_WINDOW"),
    run("xdotool", "getwindowfocus").catch(() => ""),
    run("xdotool", "getmouselocation"),
    run("xprop", "-root", "_NET_CLIENT_LIST_STACKING"),
  ]);
  const activeId = windowIds(active)[0] ?? 0;
  const location = /x:(-?\d+) y:(-?\d+)/.exec(pointer);
  return {
    active: activeId === 0 ? null : activeId,
    focus: /^\d+$/.test(focus.trim()) ? Number(focus.trim()) : null,
    pointer: { x: Number(location?.[1] ?? NaN), y: Number(location?.[2] ?? NaN) },
    stacking: windowIds(stacking),
  };
}

/** What differs between two readings, one phrase per field ([] when nothing did). */
export function desktopChanges(before: DesktopState, after: DesktopState): string[] {
  const hex = (id: number | null) => id === null ? "none" : `0x${id.toString(16)}`;
  const changes: string[] = [];
  if (before.active !== after.active) changes.push(`active ${hex(before.active)} -> ${hex(after.active)}`);
  if (before.focus !== after.focus) changes.push(`focus ${hex(before.focus)} -> ${hex(after.focus)}`);
  if (before.pointer.x !== after.pointer.x || before.pointer.y !== after.pointer.y) {
    changes.push(
      `pointer (${before.pointer.x}, ${before.pointer.y}) -> (${after.pointer.x}, ${after.pointer.y})`,
    );
  }
  if (before.stacking.join() !== after.stacking.join()) {
    changes.push(`stacking [${before.stacking.map(hex)}] -> [${after.stacking.map(hex)}]`);
  }
  return changes;
}

/**
 * Activates (and raises) a window through the window manager; true once
 * `_NET_ACTIVE_WINDOW` names it (polled for up to `timeoutMs`).
 */
export async function activate(windowId: number, timeoutMs = 1_000): Promise<boolean> {
  await run("xdotool", "windowactivate", String(windowId));
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const state = await readDesktop();
    if (state.active === windowId && state.focus === windowId) return true;
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
}

/** Raises a window without activating it. */
export async function raise(windowId: number): Promise<void> {
  await run("xdotool", "windowraise", String(windowId));
}

/** Moves the real pointer. */
export async function movePointer(x: number, y: number): Promise<void> {
  await run("xdotool", "mousemove", "--sync", String(x), String(y));
}

/** Sends a key through the core keyboard (the catalog's own clean-up, e.g. Escape). */
export async function coreKey(key: string): Promise<void> {
  await run("xdotool", "key", key);
}

/** Moves and resizes a top-level window (frame position, client size). */
export async function placeWindow(
  windowId: number,
  frame: { x: number; y: number; width: number; height: number },
): Promise<void> {
  await run("xdotool", "windowsize", "--sync", String(windowId), String(frame.width), String(frame.height));
  await run("xdotool", "windowmove", "--sync", String(windowId), String(frame.x), String(frame.y));
}

/** The client area of a window in root coordinates (`xwininfo`). */
export async function clientBox(
  windowId: number,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const text = await run("xwininfo", "-id", String(windowId));
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(text)?.[1] ?? NaN);
  return {
    x: field("Absolute upper-left X"),
    y: field("Absolute upper-left Y"),
    width: field("Width"),
    height: field("Height"),
  };
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
