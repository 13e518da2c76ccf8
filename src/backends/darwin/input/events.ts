/**
 * Quartz events: created, stamped and posted, each released right after posting.
 *
 * Two routes: `global` posts at the HID tap (kCGHIDEventTap) as the user's own
 * devices would, moving the real pointer and going to the frontmost app; `pid`
 * posts to one process, which leaves the pointer, the frontmost app and every other
 * app alone. AppKit takes a background mouse event only when it looks like the window
 * server's own: from the HID system state source, naming the target pid (field 40)
 * and the window (fields 51, 91, 92, one gesture id in 58), with the window-local
 * point set (SkyLight's `CGEventSetWindowLocation`); such events are posted with
 * SkyLight's `SLEventPostToPid` where it exists, else `CGEventPostToPid` (named in
 * {@linkcode EventPoster.lastPost}). Background keys come from a private source so
 * their modifier state never mixes with the user's. SkyLight's focus-without-raise
 * (`SLPSPostEventRecordTo`), which the reference sends before a background click, is not
 * used: it takes key focus from the user's frontmost app, which a background action must not.
 *
 * @module
 */
import {
  CGEventField,
  CGEventSourceStateID,
  CGEventTapLocation,
  CGScrollEventUnit,
} from "../../../../ffi/darwin/core_graphics.ts";
import { cgPoint } from "../../../../ffi/darwin/geometry.ts";
import type { Point } from "../../../ports/geometry.ts";
import type { Owned } from "../cf.ts";
import type { DarwinContext } from "../context.ts";

/** Where an event goes; a window's `origin` (global points) gives its window-local points. */
export type EventRoute = { kind: "global" } | {
  kind: "pid";
  pid: number;
  windowId: number | null;
  origin?: Point;
};

/** SkyLight's symbols, or null where the framework does not open. */
function skyLightOf(ctx: DarwinContext): DarwinContext["fw"]["skylight"] | null {
  try {
    return ctx.fw.skylight;
  } catch {
    return null;
  }
}

/** The most UTF-16 units the window server keeps on one keyboard event. */
export const MAX_EVENT_STRING = 20;

/** The call background events are posted with on this Mac: "SLEventPostToPid" or "CGEventPostToPid". */
export function backgroundPoster(ctx: DarwinContext): string {
  return skyLightOf(ctx)?.SLEventPostToPid ? "SLEventPostToPid" : "CGEventPostToPid";
}

/** Creates and posts Quartz events. */
export class EventPoster {
  readonly #ctx: DarwinContext;
  #sources: { global: Owned | null; private: Owned | null } = { global: null, private: null };
  #gesture = 0n;
  /** The call that posted the last background event ("SLEventPostToPid" or "CGEventPostToPid"). */
  lastPost: string | null = null;

  constructor(ctx: DarwinContext) {
    this.#ctx = ctx;
  }

  #source(route: EventRoute, mouse = false): Deno.PointerObject {
    // Mouse events of either route come from the HID system state: AppKit ignores others in the background.
    const key = route.kind === "global" || mouse ? "global" : "private";
    let source = this.#sources[key];
    if (!source) {
      const state = key === "global" ? CGEventSourceStateID.HIDSystem : CGEventSourceStateID.Private;
      source = this.#ctx.cf.ownOrThrow(this.#ctx.fw.cg.CGEventSourceCreate(state), "CGEventSourceCreate");
      this.#sources[key] = source;
    }
    return source.ref;
  }

  #post(route: EventRoute, event: Owned): void {
    using owned = event;
    if (route.kind === "global") {
      this.#ctx.fw.cg.CGEventPost(CGEventTapLocation.HID, owned.ref);
      return;
    }
    this.#ctx.fw.cg.CGEventSetIntegerValueField(
      owned.ref,
      CGEventField.EventTargetUnixProcessID,
      BigInt(route.pid),
    );
    const post = skyLightOf(this.#ctx)?.SLEventPostToPid ?? null;
    if (post) post(route.pid, owned.ref);
    else this.#ctx.fw.cg.CGEventPostToPid(route.pid, owned.ref);
    this.lastPost = post ? "SLEventPostToPid" : "CGEventPostToPid";
  }

  /** Starts a new gesture: the events after this share one gesture id (field 58). */
  beginGesture(): void {
    this.#gesture = BigInt(Math.floor(performance.now() * 1000) % 2 ** 31) + 1n;
  }

  #stampWindow(event: Owned, route: EventRoute, point: Point): void {
    if (route.kind !== "pid" || route.windowId === null) return;
    // AppKit routes a posted mouse event to the window these fields name, even a background one.
    const { cg } = this.#ctx.fw;
    const id = BigInt(route.windowId);
    cg.CGEventSetIntegerValueField(event.ref, CGEventField.WindowNumber, id);
    cg.CGEventSetIntegerValueField(event.ref, CGEventField.MouseEventWindowUnderMousePointer, id);
    cg.CGEventSetIntegerValueField(
      event.ref,
      CGEventField.MouseEventWindowUnderMousePointerThatCanHandleThisEvent,
      id,
    );
    if (this.#gesture) cg.CGEventSetIntegerValueField(event.ref, CGEventField.GestureGroup, this.#gesture);
    const setLocal = skyLightOf(this.#ctx)?.CGEventSetWindowLocation ?? null;
    if (setLocal && route.origin) {
      setLocal(event.ref, cgPoint(point.x - route.origin.x, point.y - route.origin.y));
    }
  }

  /** Posts a mouse event (move, drag, down or up) of `button` (0 left, 1 right, 2+ other). */
  mouse(
    route: EventRoute,
    type: number,
    point: Point,
    button: number,
    clickState: number,
    flags: bigint,
  ): void {
    const { cg } = this.#ctx.fw;
    const event = this.#ctx.cf.ownOrThrow(
      cg.CGEventCreateMouseEvent(
        this.#source(route, true),
        type,
        cgPoint(point.x, point.y),
        Math.min(button, 2),
      ),
      "CGEventCreateMouseEvent",
    );
    try {
      if (button > 2) {
        cg.CGEventSetIntegerValueField(event.ref, CGEventField.MouseEventButtonNumber, BigInt(button));
      }
      if (clickState > 0) {
        cg.CGEventSetIntegerValueField(event.ref, CGEventField.MouseEventClickState, BigInt(clickState));
      }
      if (flags) cg.CGEventSetFlags(event.ref, flags);
      this.#stampWindow(event, route, point);
    } catch (error) {
      event.release();
      throw error;
    }
    this.#post(route, event);
  }

  /** Posts a key down or up; `text` (at most {@linkcode MAX_EVENT_STRING} units) replaces its characters. */
  key(route: EventRoute, code: number, down: boolean, flags: bigint, text?: string): void {
    const { cg } = this.#ctx.fw;
    const event = this.#ctx.cf.ownOrThrow(
      cg.CGEventCreateKeyboardEvent(this.#source(route), code, down),
      "CGEventCreateKeyboardEvent",
    );
    cg.CGEventSetFlags(event.ref, flags);
    if (text !== undefined) {
      const units = new Uint16Array(Math.min(text.length, MAX_EVENT_STRING));
      for (let i = 0; i < units.length; i++) units[i] = text.charCodeAt(i);
      cg.CGEventKeyboardSetUnicodeString(event.ref, BigInt(units.length), units);
    }
    this.#post(route, event);
  }

  /** Posts a scroll of whole lines: positive `dy` scrolls down, positive `dx` right. */
  scroll(route: EventRoute, point: Point, dx: number, dy: number, flags: bigint): void {
    const { cg } = this.#ctx.fw;
    // Quartz wheel deltas are positive up and left: the opposite of the driver's convention.
    const event = this.#ctx.cf.ownOrThrow(
      cg.CGEventCreateScrollWheelEvent2(
        this.#source(route),
        CGScrollEventUnit.Line,
        2,
        -Math.round(dy) || 0,
        -Math.round(dx) || 0,
        0,
      ),
      "CGEventCreateScrollWheelEvent2",
    );
    cg.CGEventSetLocation(event.ref, cgPoint(point.x, point.y));
    if (flags) cg.CGEventSetFlags(event.ref, flags);
    this.#stampWindow(event, route, point);
    this.#post(route, event);
  }

  /** Moves the user's pointer without an event (restoring it after a foreground transaction). */
  warp(point: Point): void {
    this.#ctx.fw.cg.CGWarpMouseCursorPosition(cgPoint(point.x, point.y));
  }

  /** Releases the event sources. */
  close(): void {
    this.#sources.global?.release();
    this.#sources.private?.release();
    this.#sources = { global: null, private: null };
  }
}
