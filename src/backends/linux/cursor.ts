/**
 * The agent-cursor overlays of one X display: one click-through window per
 * cursor on a connection of their own (drawing never waits behind a capture or
 * an input call on the main connection), kept out of the driver's screenshots
 * by {@linkcode X11AgentCursors.withHidden}.
 *
 * The overlay window's code (drawing, shapes, the arrow, Xlib and the overlays' connection)
 * loads on first need: at start for a server (`preload`), else when a cursor is about to be
 * shown or first drawn, so a one-shot call that draws no cursor never loads it. A frame drawn
 * while it loads is drawn when it arrives.
 *
 * @module
 */
import { asDriverError } from "../../ports/errors.ts";
import type { AgentCursorBackend, AgentCursorFrame } from "../../ports/cursor.ts";
import type { XConnection } from "./x11/connection.ts";
import type * as OverlayCode from "./x11/cursor/overlay_window.ts";

/** Every agent cursor on one X display. */
export class X11AgentCursors implements AgentCursorBackend {
  #conn: XConnection | null = null;
  /** Why no overlay can be made on this display (no SHAPE, no server); null when one can. */
  #unavailable: string | null = null;
  /** The last drawing failure, for diagnostics; drawing goes on with the next frame. */
  lastError: string | null = null;
  readonly #windows = new Map<string, OverlayCode.CursorOverlayWindow>();
  /** The last frame of each shown cursor, to redraw after a capture. */
  readonly #shown = new Map<string, AgentCursorFrame>();
  /** Captures in progress: while > 0 nothing is mapped. */
  #suspended = 0;
  /** The overlay window's code, once its module has loaded. */
  #overlay: typeof OverlayCode | null = null;
  #loading: Promise<void> | null = null;
  /** Why the overlay code did not load, until a later try succeeds. */
  #loadFailure: string | null = null;

  /**
   * @param displayName The X display the overlays go on.
   * @param options.preload Load the overlay code now (servers), not at the first cursor.
   */
  constructor(readonly displayName: string, options: { preload?: boolean } = {}) {
    if (options.preload) this.#loadOverlay();
  }

  async unavailableReason(): Promise<string | null> {
    // Asked before a cursor is shown: its code loads first.
    this.#loadOverlay();
    await this.#loading;
    if (!this.#overlay) return this.#loadFailure;
    this.#connection();
    return this.#unavailable;
  }

  draw(id: string, frame: AgentCursorFrame): void {
    this.#shown.set(id, frame);
    if (this.#suspended > 0) return;
    const code = this.#overlay;
    if (!code) {
      // Drawn (with the latest frame) when the code arrives.
      this.#loadOverlay();
      return;
    }
    const conn = this.#connection();
    if (!conn) return;
    try {
      let window = this.#windows.get(id);
      if (!window) {
        window = code.CursorOverlayWindow.create(conn, frame.label, frame.style);
        this.#windows.set(id, window);
      }
      window.draw(frame);
    } catch (error) {
      this.#fail(error);
    }
  }

  hide(id: string): void {
    this.#shown.delete(id);
    this.#guard(() => this.#windows.get(id)?.hide());
  }

  remove(id: string): void {
    this.#shown.delete(id);
    const window = this.#windows.get(id);
    this.#windows.delete(id);
    if (window) this.#guard(() => window.destroy());
  }

  /** The overlay window of a cursor, for tests and diagnostics. */
  windowOf(id: string): bigint | null {
    return this.#windows.get(id)?.xid ?? null;
  }

  /**
   * Runs a capture with every overlay unmapped, then shows them again. Free when no
   * overlay is mapped. The server recomposites what was beneath before it answers the
   * capture, so the capture holds the pixels under the overlay, not the overlay.
   */
  async withHidden<T>(capture: () => Promise<T>): Promise<T> {
    const mapped = [...this.#windows.values()].filter((w) => w.mapped);
    if (mapped.length === 0 && this.#suspended === 0) return await capture();
    this.#suspended++;
    this.#guard(() => {
      for (const window of mapped) window.hide();
    });
    try {
      return await capture();
    } finally {
      this.#suspended--;
      if (this.#suspended === 0) {
        for (const [id, frame] of this.#shown) this.draw(id, frame);
      }
    }
  }

  /** Destroys every overlay and closes the connection. */
  close(): void {
    for (const id of [...this.#windows.keys()]) this.remove(id);
    this.#conn?.close();
    this.#conn = null;
  }

  /**
   * Starts loading the overlay window's code unless it is loaded or loading; then draws the
   * cursors shown meanwhile. A failed load is a drawing failure (`lastError`), the reason
   * {@linkcode unavailableReason} gives, and is tried again at the next draw.
   */
  #loadOverlay(): void {
    if (this.#overlay) return;
    this.#loading ??= import("./x11/cursor/overlay_window.ts").then((code) => {
      this.#overlay = code;
      this.#loadFailure = null;
      if (this.#suspended === 0) {
        for (const [id, frame] of this.#shown) this.draw(id, frame);
      }
    }, (error) => {
      this.#loadFailure = `the overlay code did not load: ${error instanceof Error ? error.message : error}`;
      this.lastError = this.#loadFailure;
    }).finally(() => {
      this.#loading = null;
    });
  }

  /**
   * The overlay connection, opened on first use and reopened after the server comes back;
   * null before the overlay code loaded or when overlays cannot be made.
   */
  #connection(): XConnection | null {
    if (this.#conn?.alive) return this.#conn;
    this.#conn?.close();
    this.#conn = null;
    this.#windows.clear();
    if (!this.#overlay) return null;
    const opened = this.#overlay.openOverlayConnection(this.displayName);
    if ("unavailable" in opened) {
      this.#unavailable = opened.unavailable;
      return null;
    }
    this.#conn = opened.conn;
    this.#unavailable = null;
    return opened.conn;
  }

  #guard(fn: () => void): void {
    try {
      if (this.#conn?.alive) fn();
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    this.lastError = asDriverError(error).message;
  }
}
