/**
 * One agent cursor on X11: a small override-redirect window (the window manager
 * never sees it) whose bounding shape is the arrow (and the click pulse ring),
 * and whose input shape is empty, so every click and motion passes through to
 * the window beneath. Drawn with a GC (filled polygons and arcs), no toolkit.
 *
 * @module
 */
import { NativeError } from "../../../../../ffi/_errors.ts";
import { cstr } from "../../../../../ffi/_c.ts";
import {
  CW,
  PolygonShape,
  VisualLayout,
  x11,
  XPointLayout,
  XSetWindowAttributesLayout,
} from "../../../../../ffi/linux/x11.ts";
import { Shape, xshape } from "../../../../../ffi/linux/xshape.ts";
import { asDriverError, DriverError } from "../../../../ports/errors.ts";
import type { AgentCursorFrame, AgentCursorStyle } from "../../../../ports/cursor.ts";
import type { Point } from "../../../../ports/geometry.ts";
import { XConnection } from "../connection.ts";
import { type ArrowGeometry, arrowGeometry, ringRadii } from "./arrow.ts";

/** The name every overlay window carries, before the session label. */
export const OVERLAY_NAME_PREFIX = "Cua.AgentCursorOverlay.";

/** Pixel values of a style on one visual. */
interface Pixels {
  fill: bigint;
  outline: bigint;
  accent: bigint;
}

/** A click-through overlay window showing one cursor. */
export class CursorOverlayWindow {
  readonly #conn: XConnection;
  readonly xid: bigint;
  #geometry: ArrowGeometry;
  #pixmap: bigint;
  readonly #gc: Deno.PointerObject;
  #maskGc: Deno.PointerObject;
  #mapped = false;
  /** What the window shows now; null until painted after the last map. */
  #painted: { pulse: number; styleKey: string } | null = null;
  #at: Point | null = null;

  private constructor(
    conn: XConnection,
    xid: bigint,
    geometry: ArrowGeometry,
    pixmap: bigint,
    gc: Deno.PointerObject,
    maskGc: Deno.PointerObject,
  ) {
    this.#conn = conn;
    this.xid = xid;
    this.#geometry = geometry;
    this.#pixmap = pixmap;
    this.#gc = gc;
    this.#maskGc = maskGc;
  }

  /**
   * Creates the window (unmapped), names it and empties its input shape, then reads the
   * input shape back.
   *
   * @throws {DriverError} `native_call_failed` when the server refuses any step or the
   *   input shape does not read back empty (the overlay would swallow clicks).
   */
  static create(conn: XConnection, label: string, style: AgentCursorStyle): CursorOverlayWindow {
    const display = conn.unsafeDisplay();
    const geometry = arrowGeometry(style.scale);
    const attributes = new Uint8Array(XSetWindowAttributesLayout.size);
    const view = new DataView(attributes.buffer);
    view.setBigUint64(XSetWindowAttributesLayout.background_pixel, pixelsFor(conn, style).outline, true);
    view.setBigUint64(XSetWindowAttributesLayout.border_pixel, 0n, true);
    view.setInt32(XSetWindowAttributesLayout.override_redirect, 1, true);
    const created = conn.trap(() => {
      const s = x11.symbols;
      const xid = s.XCreateWindow(
        display,
        conn.root,
        -geometry.width,
        -geometry.height,
        geometry.width,
        geometry.height,
        0,
        CW.CopyFromParent,
        CW.InputOutput,
        null,
        CW.BackPixel | CW.BorderPixel | CW.OverrideRedirect,
        attributes,
      );
      s.XStoreName(display, xid, cstr(OVERLAY_NAME_PREFIX + label));
      // Click-through: an empty input region, so pointer events go to whatever is beneath.
      xshape.symbols.XShapeCombineRectangles(
        display,
        xid,
        Shape.Input,
        0,
        0,
        null,
        0,
        Shape.Set,
        Shape.Unsorted,
      );
      const pixmap = s.XCreatePixmap(display, xid, geometry.width, geometry.height, 1);
      const gc = s.XCreateGC(display, xid, 0n, null);
      const maskGc = s.XCreateGC(display, pixmap, 0n, null);
      return { xid, pixmap, gc, maskGc };
    });
    const { xid, pixmap, gc, maskGc } = created.value;
    if (created.errors.length || !xid || !gc || !maskGc) {
      if (xid) conn.trap(() => x11.symbols.XDestroyWindow(display, xid));
      throw new NativeError(
        "XCreateWindow",
        created.errors[0]?.errorCode ?? null,
        "the X server refused to create the agent-cursor overlay",
        { x_errors: created.errors.map((e) => ({ error_code: e.errorCode, request_code: e.requestCode })) },
      );
    }
    const window = new CursorOverlayWindow(conn, xid, geometry, pixmap, gc, maskGc);
    if (window.inputRectangles() !== 0) {
      window.destroy();
      throw new DriverError("native_call_failed", "The agent-cursor overlay's input shape did not empty", {
        hint: "the X server's SHAPE extension lacks input shapes (SHAPE 1.1)",
      });
    }
    return window;
  }

  /** How many rectangles the server reports in the input shape (0: fully click-through). */
  inputRectangles(): number {
    const count = new Int32Array(1), ordering = new Int32Array(1);
    const { value } = this.#conn.trap(() =>
      xshape.symbols.XShapeGetRectangles(this.#conn.unsafeDisplay(), this.xid, Shape.Input, count, ordering)
    );
    if (value) x11.symbols.XFree(value);
    return count[0];
  }

  /** Top-left of the window on screen, or null before the first draw. */
  get origin(): Point | null {
    return this.#at;
  }

  /** True while mapped. */
  get mapped(): boolean {
    return this.#mapped;
  }

  /** Moves the tip to the frame's point, maps and raises the window, repaints what changed. */
  draw(frame: AgentCursorFrame): void {
    const styleKey = `${frame.style.fill}/${frame.style.outline}/${frame.style.accent}/${frame.style.scale}`;
    const wanted = arrowGeometry(frame.style.scale);
    if (wanted.scale !== this.#geometry.scale) this.#resize(wanted);
    const display = this.#conn.unsafeDisplay();
    const g = this.#geometry;
    const x = Math.round(frame.point.x - g.tip.x), y = Math.round(frame.point.y - g.tip.y);
    const pulse = Math.round(Math.max(0, Math.min(1, frame.pulse)) * 20) / 20;
    this.#conn.trap(() => {
      const s = x11.symbols;
      if (!this.#at || this.#at.x !== x || this.#at.y !== y) s.XMoveWindow(display, this.xid, x, y);
      this.#at = { x, y };
      if (!this.#painted || this.#painted.pulse !== pulse || this.#painted.styleKey !== styleKey) {
        this.#shape(display, pulse);
      }
      // Stay above every other window, including ones raised since the last frame.
      if (this.#mapped) s.XRaiseWindow(display, this.xid);
      else s.XMapRaised(display, this.xid);
      // A window's contents exist only while it is mapped (redirected windows get their pixmap then).
      if (
        !this.#mapped || !this.#painted || this.#painted.pulse !== pulse ||
        this.#painted.styleKey !== styleKey
      ) {
        this.#paint(display, pixelsFor(this.#conn, frame.style), pulse);
      }
      this.#mapped = true;
      this.#painted = { pulse, styleKey };
    });
  }

  /** Unmaps the window; the next draw maps and repaints it. */
  hide(): void {
    if (!this.#mapped) return;
    this.#conn.trap(() => x11.symbols.XUnmapWindow(this.#conn.unsafeDisplay(), this.xid));
    this.#mapped = false;
    this.#painted = null;
  }

  /** Destroys the window and its drawing resources. */
  destroy(): void {
    if (!this.#conn.alive) return;
    const display = this.#conn.unsafeDisplay();
    this.#conn.trap(() => {
      const s = x11.symbols;
      s.XFreeGC(display, this.#gc);
      s.XFreeGC(display, this.#maskGc);
      s.XFreePixmap(display, this.#pixmap);
      s.XDestroyWindow(display, this.xid);
    });
    this.#mapped = false;
  }

  #resize(geometry: ArrowGeometry): void {
    const display = this.#conn.unsafeDisplay();
    this.#conn.trap(() => {
      const s = x11.symbols;
      s.XFreeGC(display, this.#maskGc);
      s.XFreePixmap(display, this.#pixmap);
      this.#pixmap = s.XCreatePixmap(display, this.xid, geometry.width, geometry.height, 1);
      this.#maskGc = s.XCreateGC(display, this.#pixmap, 0n, null)!;
      s.XMoveResizeWindow(
        display,
        this.xid,
        this.#at?.x ?? 0,
        this.#at?.y ?? 0,
        geometry.width,
        geometry.height,
      );
    });
    this.#geometry = geometry;
    this.#painted = null;
  }

  /** Sets the bounding shape: the arrow, plus the pulse ring while there is one. */
  #shape(display: Deno.PointerObject, pulse: number): void {
    const s = x11.symbols, g = this.#geometry, mask = this.#maskGc;
    s.XSetForeground(display, mask, 0n);
    s.XFillRectangle(display, this.#pixmap, mask, 0, 0, g.width, g.height);
    s.XSetForeground(display, mask, 1n);
    const ring = ringRadii(g, pulse);
    if (ring) {
      fillDisk(display, this.#pixmap, mask, g.tip, ring.outer);
      s.XSetForeground(display, mask, 0n);
      fillDisk(display, this.#pixmap, mask, g.tip, ring.inner);
      s.XSetForeground(display, mask, 1n);
    }
    fillPolygon(display, this.#pixmap, mask, g.outer);
    xshape.symbols.XShapeCombineMask(display, this.xid, Shape.Bounding, 0, 0, this.#pixmap, Shape.Set);
  }

  /** Paints the ring, the outline and the body in the style's colours. */
  #paint(display: Deno.PointerObject, pixels: Pixels, pulse: number): void {
    const s = x11.symbols, g = this.#geometry, gc = this.#gc;
    const ring = ringRadii(g, pulse);
    if (ring) {
      s.XSetForeground(display, gc, pixels.accent);
      fillDisk(display, this.xid, gc, g.tip, ring.outer);
    }
    s.XSetForeground(display, gc, pixels.outline);
    fillPolygon(display, this.xid, gc, g.outer);
    s.XSetForeground(display, gc, pixels.fill);
    fillPolygon(display, this.xid, gc, g.inner);
  }
}

function fillPolygon(
  display: Deno.PointerObject,
  drawable: bigint,
  gc: Deno.PointerObject,
  points: Point[],
): void {
  const buffer = new Int16Array(points.length * (XPointLayout.size / 2));
  points.forEach((p, i) => {
    buffer[i * 2] = Math.round(p.x);
    buffer[i * 2 + 1] = Math.round(p.y);
  });
  x11.symbols.XFillPolygon(
    display,
    drawable,
    gc,
    buffer,
    points.length,
    PolygonShape.Nonconvex,
    PolygonShape.CoordModeOrigin,
  );
}

function fillDisk(
  display: Deno.PointerObject,
  drawable: bigint,
  gc: Deno.PointerObject,
  centre: Point,
  radius: number,
): void {
  if (radius <= 0) return;
  const r = Math.round(radius);
  // Angles are in 64ths of a degree: a full circle is 360 * 64.
  x11.symbols.XFillArc(display, drawable, gc, centre.x - r, centre.y - r, 2 * r, 2 * r, 0, 360 * 64);
}

const pixelCache = new WeakMap<XConnection, { masks: [bigint, bigint, bigint] | null }>();

/** Pixel values of `#rrggbb` colours on the screen's default visual (TrueColor/DirectColor). */
export function pixelsFor(conn: XConnection, style: AgentCursorStyle): Pixels {
  let cached = pixelCache.get(conn);
  if (!cached) {
    const visual = x11.symbols.XDefaultVisual(conn.unsafeDisplay(), conn.screen);
    let masks: [bigint, bigint, bigint] | null = null;
    if (visual) {
      const view = new Deno.UnsafePointerView(visual);
      const visualClass = view.getInt32(VisualLayout.class);
      // TrueColor (4) and DirectColor (5) encode RGB in the pixel; other classes fall back to black/white.
      if (visualClass === 4 || visualClass === 5) {
        masks = [
          view.getBigUint64(VisualLayout.red_mask),
          view.getBigUint64(VisualLayout.green_mask),
          view.getBigUint64(VisualLayout.blue_mask),
        ];
      }
    }
    cached = { masks };
    pixelCache.set(conn, cached);
  }
  const masks = cached.masks;
  const pixel = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    if (!masks) return r + g + b > 382 ? 0xffffffn : 0n;
    return scale(r, masks[0]) | scale(g, masks[1]) | scale(b, masks[2]);
  };
  return { fill: pixel(style.fill), outline: pixel(style.outline), accent: pixel(style.accent) };
}

/** Places an 8-bit channel value into a visual's channel mask. */
function scale(value: number, mask: bigint): bigint {
  if (mask === 0n) return 0n;
  let shift = 0n;
  while (((mask >> shift) & 1n) === 0n) shift++;
  let bits = 0n;
  while (((mask >> (shift + bits)) & 1n) === 1n) bits++;
  const max = (1n << bits) - 1n;
  return ((BigInt(value) * max + 127n) / 255n) << shift;
}

/**
 * A connection of the overlays' own to `displayName`, or why overlays cannot be made there
 * (no SHAPE extension, so no click-through window; or no server).
 */
export function openOverlayConnection(displayName: string): { conn: XConnection } | { unavailable: string } {
  let conn: XConnection;
  try {
    conn = XConnection.open(displayName);
  } catch (error) {
    return { unavailable: asDriverError(error).message };
  }
  const base = new Int32Array(1), error = new Int32Array(1);
  if (!xshape.available() || !xshape.symbols.XShapeQueryExtension(conn.unsafeDisplay(), base, error)) {
    conn.close();
    return { unavailable: "the X server has no SHAPE extension, so an overlay cannot be made click-through" };
  }
  return { conn };
}
