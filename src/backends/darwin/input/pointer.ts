/**
 * Pointers made of Quartz mouse events. The global pointer is the user's own (HID
 * tap); a background pointer has a position of its own and posts to the process
 * whose window is under it, naming that window on each event, so the user's pointer
 * and frontmost app stay where they are. Click counts (double, triple) travel in
 * kCGMouseEventClickState, which is how AppKit tells a double click.
 *
 * A background press is preceded by a mouseMoved to the same point (AppKit hit-tests a
 * press against the tracking state the window last saw) at least
 * {@linkcode BACKGROUND_GAPS_MS}.moveToDown earlier, and its release follows it by
 * at least {@linkcode BACKGROUND_GAPS_MS}.downToUp (a button's tracking loop polls for
 * the release; a tighter pair is dropped). The gaps are the reference's, found on real Macs.
 *
 * @module
 */
import { CGEventType } from "../../../../ffi/darwin/core_graphics.ts";
import { DriverError } from "../../../ports/errors.ts";
import type { Point } from "../../../ports/geometry.ts";
import type { MouseButton, OwnedPointer } from "../../../ports/input.ts";
import type { EventPoster, EventRoute } from "./events.ts";
import { settled } from "../settled.ts";

/** Least gaps between a background mouseMoved and press, and press and release (ms). */
export const BACKGROUND_GAPS_MS = { moveToDown: 12, downToUp: 28 } as const;

function waitUntil(time: number): Promise<void> {
  const wait = time - performance.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, Math.ceil(wait))) : Promise.resolve();
}

function samePoint(a: Point, b: Point): boolean {
  return a.x === b.x && a.y === b.y;
}

/** Two presses closer than this in time and space make a double click (AppKit's default interval). */
export const DOUBLE_CLICK_MS = 500;
const DOUBLE_CLICK_SLOP = 4;

const BUTTON_NUMBER: Record<MouseButton, number> = { left: 0, right: 1, middle: 2, back: 3, forward: 4 };

function types(button: MouseButton): { down: number; up: number; drag: number } {
  if (button === "left") {
    return {
      down: CGEventType.LeftMouseDown,
      up: CGEventType.LeftMouseUp,
      drag: CGEventType.LeftMouseDragged,
    };
  }
  if (button === "right") {
    return {
      down: CGEventType.RightMouseDown,
      up: CGEventType.RightMouseUp,
      drag: CGEventType.RightMouseDragged,
    };
  }
  return {
    down: CGEventType.OtherMouseDown,
    up: CGEventType.OtherMouseUp,
    drag: CGEventType.OtherMouseDragged,
  };
}

/** Where a pointer's events go. */
export interface PointerRouting {
  /** The route for an event at `point`; null when nothing there can take background input. */
  routeAt(point: Point): EventRoute | null;
  /** The pointer's position when it has not moved yet. */
  initial(): Point;
  /** Modifier flags held on the channel's keyboard, stamped on pointer events. */
  flags(): bigint;
}

/** A pointer of the global or a background channel. */
export class DarwinPointer implements OwnedPointer {
  #position: Point | null = null;
  readonly #held = new Map<MouseButton, { route: EventRoute; clickState: number }>();
  #lastPress: { button: MouseButton; point: Point; time: number; count: number } | null = null;
  /** The last background mouseMoved this pointer posted, and the last press (performance.now()). */
  #lastMove: { windowId: number | null; point: Point; time: number } | null = null;
  #downAt = 0;
  #closed = false;

  constructor(
    readonly poster: EventPoster,
    readonly routing: PointerRouting,
    readonly channel: "global" | "background",
  ) {}

  #at(): Point {
    return this.#position ?? this.routing.initial();
  }

  #route(point: Point): EventRoute {
    const held = this.#held.values().next();
    if (!held.done) return held.value.route; // a drag stays with the app it started in
    const route = this.routing.routeAt(point);
    if (!route) {
      throw new DriverError(
        "background_unavailable",
        `No window at (${point.x}, ${point.y}) takes background pointer input; nothing was sent`,
        {
          effect: "refused",
          escalation: { recommended: "foreground", reason: "no_target_window" },
          hint: 'retry with delivery_mode "foreground"',
        },
      );
    }
    return route;
  }

  /** Moves (or drags, with a button held) to a screen point. */
  move(point: Point): Promise<void> {
    return settled(() => {
      this.#ensureOpen();
      this.#position = { ...point };
      const dragging = [...this.#held.keys()][0];
      if (dragging === undefined && this.channel === "background") {
        const route = this.routing.routeAt(point);
        if (route) this.#primer(route, point);
        return;
      }
      const type = dragging === undefined ? CGEventType.MouseMoved : types(dragging).drag;
      this.poster.mouse(
        this.#route(point),
        type,
        point,
        BUTTON_NUMBER[dragging ?? "left"],
        0,
        this.routing.flags(),
      );
      return;
    });
  }

  /** A mouseMoved that starts a gesture: it and the presses after it share one gesture id. */
  #primer(route: EventRoute, point: Point): void {
    this.poster.beginGesture();
    this.poster.mouse(route, CGEventType.MouseMoved, point, 0, 0, this.routing.flags());
    this.#lastMove = {
      windowId: route.kind === "pid" ? route.windowId : null,
      point: { ...point },
      time: performance.now(),
    };
  }

  /** The native call that posted this pointer's last background event, for the action's summary. */
  via(): string | null {
    return this.channel === "background" ? this.poster.lastPost : null;
  }

  /** Presses or releases a button where the pointer is. */
  async button(button: MouseButton, down: boolean): Promise<void> {
    this.#ensureOpen();
    const point = this.#at();
    if (down) {
      const route = this.#route(point);
      const last = this.#lastPress;
      const repeat = last !== null && last.button === button && Date.now() - last.time < DOUBLE_CLICK_MS &&
        Math.abs(last.point.x - point.x) <= DOUBLE_CLICK_SLOP &&
        Math.abs(last.point.y - point.y) <= DOUBLE_CLICK_SLOP;
      const clickState = repeat ? Math.min(last!.count + 1, 3) : 1;
      if (this.channel === "background" && route.kind === "pid") {
        const moved = this.#lastMove;
        if (!moved || moved.windowId !== route.windowId || !samePoint(moved.point, point)) {
          this.#primer(route, point);
        }
        await waitUntil(this.#lastMove!.time + BACKGROUND_GAPS_MS.moveToDown);
      }
      await settled(() => {
        this.#lastPress = { button, point, time: Date.now(), count: clickState };
        this.poster.mouse(
          route,
          types(button).down,
          point,
          BUTTON_NUMBER[button],
          clickState,
          this.routing.flags(),
        );
        this.#downAt = performance.now();
        this.#held.set(button, { route, clickState });
      });
      return;
    }
    const held = this.#held.get(button);
    const route = held?.route ?? this.#route(point);
    if (this.channel === "background" && route.kind === "pid") {
      await waitUntil(this.#downAt + BACKGROUND_GAPS_MS.downToUp);
    }
    await settled(() => {
      this.poster.mouse(
        route,
        types(button).up,
        point,
        BUTTON_NUMBER[button],
        held?.clickState ?? 1,
        this.routing.flags(),
      );
      this.#held.delete(button);
    });
  }

  /** Scrolls by whole lines (positive dy down, positive dx right) where the pointer is. */
  wheel(dx: number, dy: number): Promise<void> {
    return settled(() => {
      this.#ensureOpen();
      const point = this.#at();
      this.poster.scroll(this.#route(point), point, dx, dy, this.routing.flags());
      return;
    });
  }

  /** Releases every held button. */
  async releaseAll(): Promise<void> {
    for (const button of [...this.#held.keys()]) await this.button(button, false);
  }

  /** Quartz posts synchronously into the target's queue: nothing to flush. */
  sync(): Promise<void> {
    return Promise.resolve();
  }

  /** This pointer's position (a background pointer's own; the user's for the global one). */
  position(): Promise<Point | null> {
    return Promise.resolve(this.channel === "global" ? this.routing.initial() : this.#position);
  }

  /** Releases buttons; the pointer is unusable afterwards. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.releaseAll();
    this.#closed = true;
  }

  #ensureOpen(): void {
    if (this.#closed) throw new DriverError("invalid_arguments", "The pointer was closed", {});
  }
}
