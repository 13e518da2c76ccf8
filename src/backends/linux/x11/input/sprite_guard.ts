/**
 * Keeps the X server's software cursor of an agent master from ever holding a cursor that
 * another client can free.
 *
 * Why (xorg-server 21.1, mi/mipointer.c and mi/misprite.c): an agent master is created with
 * send_core = False, so its `coreEvents` is false and `miPointerUpdateSprite(master)` returns
 * at once. When the DIX switches the master's cursor (`ChangeToCursor`, for instance because
 * the window under it was destroyed) the software sprite keeps a raw pointer to the old
 * cursor until the master's XTEST slave sends its next event. If the old cursor was the
 * target app's and the app dies, the cursor is freed while the sprite still draws it:
 * the next redraw dereferences freed memory and Xvfb dies of SIGSEGV in its BlockHandler
 * (4 of 6 app kills mid-drag in issue 11, reproduced here 2 of 12). The same stale state
 * makes `RemoveDevice` leave the sprite counted as up, and Xvfb aborts with "double free or
 * corruption" when it shuts down after any master that moved was removed.
 *
 * So the sprite of an agent master only ever shows nothing:
 * - while a background gesture may cross other clients' windows, the screen's cursors are
 *   hidden (XFixesHideCursor): the DIX then hands the sprite no cursor at all;
 * - between calls the master rests on a 1x1 input-only window of ours whose device cursor
 *   (for the agent masters only) is empty, or, after a hover, under an empty device cursor
 *   pinned on the windows beneath it; only then are cursors shown again;
 * - masters are moved onto that window before they are removed.
 *
 * The price: on a desktop with a visible pointer, the user's cursor is hidden for the length
 * of each background pointer gesture (a click is a few milliseconds; a drag its duration).
 *
 * @module
 */
import { CW, x11, XSetWindowAttributesLayout } from "../../../../../ffi/linux/x11.ts";
import { xfixes } from "../../../../../ffi/linux/xfixes.ts";
import { xi } from "../../../../../ffi/linux/xi.ts";
import { xtst } from "../../../../../ffi/linux/xtst.ts";
import type { Point } from "../../../../ports/geometry.ts";
import type { XConnection } from "../connection.ts";

/** What the guard needs of an agent master: its pointer id and the XTEST slave that moves it. */
export interface GuardedPointer {
  readonly pointerId: number;
  /** `XDevice*` of the master's XTEST pointer slave. */
  readonly pointerDevice: Deno.PointerObject;
  readonly alive: boolean;
}

/** The empty cursor and the window agent masters rest on. */
export class SpriteGuard {
  readonly #conn: XConnection;
  readonly #window: bigint;
  readonly #cursor: bigint;
  readonly #point: Point;
  /** Masters whose pointer left the rest window since they were last settled. */
  readonly #away = new Map<GuardedPointer, Point>();
  /** Masters that have the empty cursor on the rest window. */
  readonly #enrolled = new Set<number>();
  #hidden = false;
  #closed = false;

  private constructor(conn: XConnection, window: bigint, cursor: bigint, point: Point) {
    this.#conn = conn;
    this.#window = window;
    this.#cursor = cursor;
    this.#point = point;
  }

  /**
   * Creates the rest window (mapped, above everything, at the bottom-right pixel).
   *
   * @returns The guard, or null when the server has no XFIXES (background input then runs unguarded).
   */
  static create(conn: XConnection): SpriteGuard | null {
    if (!xfixes.available()) return null;
    const display = conn.unsafeDisplay();
    const base = new Int32Array(1), error = new Int32Array(1);
    if (!xfixes.symbols.XFixesQueryExtension(display, base, error)) return null;
    const major = new Int32Array([4]), minor = new Int32Array([0]);
    xfixes.symbols.XFixesQueryVersion(display, major, minor);
    if (major[0] < 4) return null; // HideCursor/ShowCursor are XFIXES 4.
    const { width, height } = conn.screenSize();
    const point = { x: width - 1, y: height - 1 };
    const attributes = new Uint8Array(XSetWindowAttributesLayout.size);
    new DataView(attributes.buffer).setInt32(XSetWindowAttributesLayout.override_redirect, 1, true);
    const { value, errors } = conn.trap(() => {
      const s = x11.symbols;
      const window = s.XCreateWindow(
        display,
        conn.root,
        point.x,
        point.y,
        1,
        1,
        0,
        0,
        CW.InputOnly,
        null,
        CW.OverrideRedirect,
        attributes,
      );
      // A cleared 1x1 bitmap as both source and mask: a cursor that draws nothing.
      const bitmap = s.XCreateBitmapFromData(display, conn.root, new Uint8Array(1), 1, 1);
      const color = new Uint8Array(16); // XColor
      const cursor = s.XCreatePixmapCursor(display, bitmap, bitmap, color, color, 0, 0);
      s.XFreePixmap(display, bitmap);
      s.XMapRaised(display, window);
      return { window, cursor };
    });
    if (errors.length || !value.window || !value.cursor) {
      conn.trap(() => {
        if (value.window) x11.symbols.XDestroyWindow(display, value.window);
        if (value.cursor) x11.symbols.XFreeCursor(display, value.cursor);
      });
      return null;
    }
    return new SpriteGuard(conn, value.window, value.cursor, point);
  }

  /** Where an agent master rests between calls; raises the rest window above anything mapped since. */
  restPoint(): Point {
    if (!this.#closed && this.#conn.alive) x11.symbols.XRaiseWindow(this.#conn.unsafeDisplay(), this.#window);
    return this.#point;
  }

  /**
   * Moves a master onto the rest window and waits until the server has processed it, so
   * its sprite shows nothing (used before a master is removed, and by {@linkcode settle}'s callers).
   */
  rest(master: GuardedPointer): void {
    if (this.#closed || !master.alive) return;
    this.enroll(master);
    const display = this.#conn.unsafeDisplay();
    const point = this.restPoint();
    this.#conn.trap(() =>
      xtst.symbols.XTestFakeDeviceMotionEvent(
        display,
        master.pointerDevice,
        0,
        0,
        new Int32Array([point.x, point.y]),
        2,
        0n,
      )
    );
    this.rested(master);
  }

  /** Gives a master the empty cursor on the rest window (once per master). */
  enroll(master: GuardedPointer): void {
    if (this.#closed || this.#enrolled.has(master.pointerId)) return;
    const display = this.#conn.unsafeDisplay();
    this.#conn.trap(() => xi.symbols.XIDefineCursor(display, master.pointerId, this.#window, this.#cursor));
    this.#enrolled.add(master.pointerId);
  }

  /** Call before a master's pointer moves to `point`: hides cursors if it leaves the rest window. */
  beforeMove(master: GuardedPointer, point: Point): void {
    if (this.#closed) return;
    if (point.x === this.#point.x && point.y === this.#point.y) return;
    this.#away.set(master, point);
    if (!this.#hidden) {
      this.#hidden = true;
      xfixes.symbols.XFixesHideCursor(this.#conn.unsafeDisplay(), this.#conn.root);
    }
  }

  /** Call after a master's pointer reached the rest window and the server processed it. */
  rested(master: GuardedPointer): void {
    this.#away.delete(master);
    this.#showIfSettled();
  }

  /**
   * Makes every master that is not resting safe to leave where it is (a hover): an empty
   * device cursor on each window under its pointer, and one motion so the sprite takes it.
   * Then shows cursors again.
   */
  settle(): void {
    if (this.#closed || !this.#conn.alive) return;
    const display = this.#conn.unsafeDisplay();
    for (const [master, point] of this.#away) {
      if (!master.alive) {
        this.#away.delete(master);
        continue;
      }
      this.#conn.trap(() => {
        for (const window of windowsUnder(this.#conn, master.pointerId)) {
          xi.symbols.XIDefineCursor(display, master.pointerId, window, this.#cursor);
        }
        xtst.symbols.XTestFakeDeviceMotionEvent(
          display,
          master.pointerDevice,
          0,
          0,
          new Int32Array([point.x, point.y]),
          2,
          0n,
        );
      });
      this.#away.delete(master);
    }
    this.#showIfSettled();
  }

  /** Forgets a master that is being removed. */
  forget(master: GuardedPointer): void {
    this.#away.delete(master);
    this.#enrolled.delete(master.pointerId);
    this.#showIfSettled();
  }

  #showIfSettled(): void {
    if (!this.#hidden || this.#away.size > 0 || !this.#conn.alive) return;
    this.#hidden = false;
    const display = this.#conn.unsafeDisplay();
    x11.symbols.XSync(display, 0);
    xfixes.symbols.XFixesShowCursor(display, this.#conn.root);
    x11.symbols.XFlush(display);
  }

  /** Destroys the rest window and the cursor (cursors are shown again if hidden). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#conn.alive) return;
    const display = this.#conn.unsafeDisplay();
    this.#conn.trap(() => {
      if (this.#hidden) xfixes.symbols.XFixesShowCursor(display, this.#conn.root);
      x11.symbols.XDestroyWindow(display, this.#window);
      x11.symbols.XFreeCursor(display, this.#cursor);
    });
    this.#hidden = false;
  }
}

/** The windows under a master's pointer, from the root's child down to the deepest. */
function windowsUnder(conn: XConnection, pointerId: number): bigint[] {
  const display = conn.unsafeDisplay();
  const windows: bigint[] = [];
  let window = conn.root;
  for (let depth = 0; depth < 32; depth++) {
    const root = new BigUint64Array(1), child = new BigUint64Array(1);
    const rx = new Float64Array(1),
      ry = new Float64Array(1),
      wx = new Float64Array(1),
      wy = new Float64Array(1);
    // XIButtonState {int mask_len; unsigned char *mask} (mask is Xlib-allocated); modifier and group: 4 ints each.
    const buttons = new BigUint64Array(2), mods = new Int32Array(4), group = new Int32Array(4);
    const same = xi.symbols.XIQueryPointer(
      display,
      pointerId,
      window,
      root,
      child,
      rx,
      ry,
      wx,
      wy,
      buttons,
      mods,
      group,
    );
    const mask = Deno.UnsafePointer.create(buttons[1]);
    if (mask) x11.symbols.XFree(mask);
    if (!same || child[0] === 0n) break;
    window = child[0];
    windows.push(window);
  }
  return windows;
}
