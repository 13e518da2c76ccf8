/**
 * The agent cursor capability: an overlay drawn where the agent acts.
 *
 * @module
 */

import type { Point } from "./geometry.ts";

/** How an agent cursor looks: colours as `#rrggbb`, size relative to the theme's base arrow. */
export interface AgentCursorStyle {
  /** Arrow body. */
  fill: string;
  /** Arrow outline. */
  outline: string;
  /** Click pulse ring. */
  accent: string;
  /** Scale of the arrow, 1 = about 20 px tall. */
  scale: number;
}

/** One rendered frame of an agent cursor. */
export interface AgentCursorFrame {
  /** Screen point of the arrow's tip. */
  point: Point;
  style: AgentCursorStyle;
  /** Click pulse progress: 0 none, up to 1 at its widest. */
  pulse: number;
  /** Session label shown as the overlay's name (`Cua.AgentCursorOverlay.<label>`). */
  label: string;
}

/**
 * The agent cursor's drawing surface: a click-through overlay above every window,
 * never in the driver's own screenshots. Drawing calls are synchronous and never throw;
 * a failure leaves the cursor undrawn and is reported by {@linkcode unavailableReason}.
 */
export interface AgentCursorBackend {
  /**
   * Null when cursors can be drawn on this desktop, else why not. Asynchronous: the answer may
   * need the overlay's code and a connection of its own, which load at the first ask.
   */
  unavailableReason(): Promise<string | null>;
  /** Draws cursor `id` (creating its overlay on first use), shown and above other windows. */
  draw(id: string, frame: AgentCursorFrame): void;
  /** Hides cursor `id`, keeping its overlay for the next draw. */
  hide(id: string): void;
  /** Removes cursor `id` and its overlay. Idempotent. */
  remove(id: string): void;
}
