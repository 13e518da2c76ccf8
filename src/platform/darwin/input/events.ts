/**
 * Quartz events: created, stamped and posted, each released right after posting.
 *
 * Two routes: `global` posts at the HID tap (kCGHIDEventTap) as the user's own
 * devices would, moving the real pointer and going to the frontmost app; `pid`
 * posts to one process (`CGEventPostToPid`), which leaves the pointer, the
 * frontmost app and every other app alone. Background events come from a private
 * event source so their button and modifier state never mixes with the user's.
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
import type { Point } from "../../types.ts";
import type { Owned } from "../cf.ts";
import type { DarwinContext } from "../context.ts";

/** Where an event goes. */
export type EventRoute = { kind: "global" } | { kind: "pid"; pid: number; windowId: number | null };

/** The most UTF-16 units the window server keeps on one keyboard event. */
export const MAX_EVENT_STRING = 20;

/** Creates and posts Quartz events. */
export class EventPoster {
  readonly #ctx: DarwinContext;
  #sources: { global: Owned | null; private: Owned | null } = { global: null, private: null };

  constructor(ctx: DarwinContext) {
    this.#ctx = ctx;
  }

  #source(route: EventRoute): Deno.PointerObject {
    const key = route.kind === "global" ? "global" : "private";
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
    if (route.kind === "global") this.#ctx.fw.cg.CGEventPost(CGEventTapLocation.HID, owned.ref);
    else this.#ctx.fw.cg.CGEventPostToPid(route.pid, owned.ref);
  }

  #stampWindow(event: Owned, route: EventRoute): void {
    if (route.kind !== "pid" || route.windowId === null) return;
    // AppKit routes a posted mouse event to the window these fields name, even a background one.
    const { cg } = this.#ctx.fw;
    const id = BigInt(route.windowId);
    cg.CGEventSetIntegerValueField(event.ref, CGEventField.MouseEventWindowUnderMousePointer, id);
    cg.CGEventSetIntegerValueField(
      event.ref,
      CGEventField.MouseEventWindowUnderMousePointerThatCanHandleThisEvent,
      id,
    );
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
      cg.CGEventCreateMouseEvent(this.#source(route), type, cgPoint(point.x, point.y), Math.min(button, 2)),
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
      this.#stampWindow(event, route);
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
    this.#stampWindow(event, route);
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
