/**
 * The windows capability: listing, looking up and arranging top-level windows.
 *
 * @module
 */

import type { Rect } from "./geometry.ts";

/** A top-level window as list_windows reports it. */
export interface WindowInfo {
  windowId: number;
  pid: number | null;
  appName: string;
  /** The window's title; "" for an untitled window (listed all the same). */
  title: string;
  /**
   * The window this one is a transient dialog of (X11 `WM_TRANSIENT_FOR`); null for a
   * window of its own; absent where the platform does not tell.
   */
  transientFor?: number | null;
  /** Client area in screen points (WM decorations excluded). */
  bounds: Rect;
  isOnScreen: boolean;
  /** Stacking position, higher is nearer the front; null when the platform cannot tell. */
  zIndex: number | null;
  /**
   * Which window system serves it, where a session has two (a Wayland session: `wayland` for a
   * native window, `x11` for an XWayland one); absent elsewhere.
   */
  windowSystem?: "x11" | "wayland";
}

/** What {@linkcode WindowBackend.get} must read. */
export interface WindowLookup {
  /** Read the window's place in the stacking order (default true). */
  zIndex?: boolean;
}

/** Window listing and arrangement. */
export interface WindowBackend {
  /** Top-level windows, bottom of the stack first. */
  list(): Promise<WindowInfo[]>;
  /**
   * One window, or null if it no longer exists. With `{ zIndex: false }` the back end may
   * skip reading the stacking order (zIndex is then null): for callers that only check the
   * window's owner, title or bounds.
   */
  get(windowId: number, options?: WindowLookup): Promise<WindowInfo | null>;
  /** The active window, if the platform knows one. */
  active(): Promise<number | null>;
  /** Persistently activates and raises a window; returns the previously active one. */
  activate(windowId: number): Promise<{ priorActive: number | null }>;
  /** Requests a new client-area frame; the caller reads back the result. */
  setFrame(windowId: number, frame: Rect): Promise<void>;
  /**
   * Asks a window to close the way its close button does (the app may ask to save
   * first); false when the window no longer exists. Absent where the platform cannot.
   */
  close?(windowId: number): Promise<boolean>;
}
