/**
 * The input capability: raw pointers and keyboards per channel (background or global), the
 * toolkit a window belongs to, and what the desktop shows while input goes out.
 *
 * @module
 */

import type { Point } from "./geometry.ts";

/** Input an earlier driver left held, released by {@linkcode InputBackend.heldInputReset}'s attach. */
export interface HeldInputReport {
  /** When the back end attached (ISO 8601). */
  at: string;
  /** Devices that had something down, with the buttons and key codes released. */
  released: { device: string; buttons: number[]; keys: number[] }[];
  /** Private input devices of drivers that are gone (released; removed before the next background action). */
  stale_masters: string[];
  /** Why the user's own devices were left alone (another driver is attached), when they were. */
  core_skipped?: string;
}

/** Mouse buttons. */
export type MouseButton = "left" | "right" | "middle" | "back" | "forward";

/**
 * Where input goes: `background` drives a private pointer and keyboard that never
 * move the user's pointer or focus; `global` is the user's own pointer and keyboard
 * (foreground transactions and desktop scope).
 */
export type InputChannel = "background" | "global";

/** A pointer of one channel. */
export interface RawPointer {
  /** Absolute motion to a screen point. */
  move(point: Point): Promise<void>;
  button(button: MouseButton, down: boolean): Promise<void>;
  /**
   * Wheel detents; positive dy scrolls down, positive dx right. Stops between detents when
   * `signal` aborts and resolves with the number sent.
   */
  wheel(dx: number, dy: number, signal?: AbortSignal): Promise<number | void>;
  /**
   * Releases every button this pointer holds. Optional: the core records what it pressed
   * (`src/kernel/held_input.ts`) and releases it with `button(…, false)`.
   */
  releaseAll?(): Promise<void>;
  /** Waits until the window system processed everything sent. */
  sync(): Promise<void>;
  /** Where the window system says this pointer is now; null when it cannot tell. */
  position(): Promise<Point | null>;
  /** The native call that posted this pointer's last events, where a back end has several (named in results). */
  via?(): string | null;
}

/**
 * A private pointer of its own (one more background device), for gestures that
 * outlive one call (a held button) or run side by side (parallel drags).
 */
export interface OwnedPointer extends RawPointer {
  /** Releases its buttons and removes the device. Idempotent. */
  close(): Promise<void>;
}

/**
 * A keyboard of one channel. Keys are canonical names or single characters. `down` and `up`
 * are raw; `press` and `typeText` are atomic and leave nothing held.
 */
export interface RawKeyboard {
  /** Presses and releases a key with modifiers held (canonical names: ctrl, shift, alt, super). */
  press(key: string, modifiers: readonly string[]): Promise<void>;
  down(key: string): Promise<void>;
  up(key: string): Promise<void>;
  /**
   * Types text; returns how many characters were delivered.
   *
   * @throws {DriverError} `aborted` (with `delivered_count`) when `signal` aborts part-way;
   *   what the keyboard held is released.
   */
  typeText(text: string, delayMs?: number, signal?: AbortSignal): Promise<number>;
  /**
   * Releases every key and modifier this keyboard still holds. Optional: the core records
   * what it pressed with `down` and releases it with `up`.
   */
  releaseAll?(): Promise<void>;
}

/** The toolkit of an app, deciding which background routes land. */
export type Toolkit =
  | "gtk3"
  | "gtk4"
  | "qt"
  | "chromium"
  | "webkit"
  | "gecko"
  | "xt"
  | "win32"
  | "wpf"
  | "uwp"
  | "appkit"
  | "java"
  | "unknown";

/** What input may disturb, read at one moment. */
export interface DesktopObservation {
  activeWindow: number | null;
  /** The top-level window holding the core keyboard focus. */
  focusWindow: number | null;
  pointer: Point;
  /** Window ids bottom to top. */
  stacking: number[];
}

/** Synthesized input and the transactions around it. */
export interface InputBackend {
  /** True when background (private pointer/keyboard) input exists on this desktop. */
  backgroundAvailable(): Promise<boolean>;
  pointer(channel: InputChannel): Promise<RawPointer>;
  /**
   * Creates one more background pointer, independent of the channel pointers and of
   * {@linkcode InputBackend.releaseAll}; the caller closes it.
   *
   * @throws {DriverError} `background_unavailable` when the window system cannot create one.
   */
  extraPointer(): Promise<OwnedPointer>;
  keyboard(channel: InputChannel): Promise<RawKeyboard>;
  /** Points the background keyboard at a window for `body`, then restores the previous active window. */
  withBackgroundKeyboard<T>(windowId: number, body: () => Promise<T>): Promise<T>;
  /**
   * Activates a window (confirmed), runs `body` with global input, then restores the
   * previously active window, focus and pointer position.
   *
   * @throws {DriverError} `foreground_unavailable` when activation is not confirmed (nothing sent).
   */
  withForeground<T>(windowId: number, body: () => Promise<T>): Promise<T>;
  /** True when real pointer input at `point` reaches `windowId` (nothing covers it there). */
  windowOnTopAt(windowId: number, point: Point): Promise<boolean>;
  toolkit(pid: number): Promise<Toolkit>;
  observe(): Promise<DesktopObservation>;
  /**
   * Releases every button and key the back end still holds on any channel. Optional safety
   * net: the core releases what it pressed after every action, even a failed one.
   */
  releaseAll?(): Promise<void>;
  /**
   * What the back end released when it attached to the desktop: buttons and keys an earlier
   * driver left held (killed mid-drag or mid-typing). Null before it attached.
   */
  heldInputReset?(): Promise<HeldInputReport | null>;
  /** Resolves once the app owning the window has processed the input sent so far (bounded wait). */
  appSettled(windowId: number): Promise<void>;
}
