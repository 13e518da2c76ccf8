/**
 * One session's agent cursor: its settings, where it is going, and the frames
 * that show it getting there. The animation runs on timers at about 60 Hz and
 * only while something moves; a disabled cursor draws nothing and costs nothing.
 *
 * @module
 */
import type { AgentCursorBackend } from "../../ports/cursor.ts";
import type { Point } from "../../ports/geometry.ts";
import { type GlidePath, glidePath } from "./glide.ts";
import { type CursorMotion, defaultMotion } from "./motion.ts";
import type { CursorAction, CursorTheme } from "./themes.ts";

/** reduced_motion of set_agent_cursor_theme; `auto` follows the desktop, which on X11 means off. */
export type ReducedMotion = "auto" | "on" | "off";

/** What the cursor is doing. */
export type CursorPhase = "hidden" | "idle" | "gliding" | "pressing" | "dwell";

/** The semantic playback state get_agent_cursor_state reports. */
export interface CursorVisualState {
  requested_action: CursorAction;
  resolved_action: CursorAction;
  modifiers: string[];
  phase: CursorPhase;
  /** Frames drawn since the session's cursor was created. */
  frame: number;
  /** Glides and click pulses cut short by a newer move. */
  preempted_count: number;
}

/** Time between frames: about 60 Hz. */
export const FRAME_MS = 16;
/** How long the pulse ring grows after a press. */
export const PRESS_MS = 120;

interface Glide {
  path: GlidePath;
  start: number;
  duration: number;
  arrived: () => void;
}

/** A session's agent cursor. */
export class AgentCursor {
  enabled = false;
  motion: CursorMotion = defaultMotion();
  theme: CursorTheme;
  reducedMotion: ReducedMotion = "auto";
  /** The theme asked for when a different one is in use; null when the asked-for theme is drawn. */
  fallback: string | null = null;
  /** Where the cursor is going (its last target); null until its first move. */
  position: Point | null = null;
  readonly visual: CursorVisualState = {
    requested_action: "idle",
    resolved_action: "idle",
    modifiers: [],
    phase: "hidden",
    frame: 0,
    preempted_count: 0,
  };
  /** Where it is drawn now. */
  #drawn: Point | null = null;
  #glide: Glide | null = null;
  #pulseStart: number | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #idleTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * @param id The surface's id for this cursor (the session's internal id).
   * @param label Shown in the overlay's name (the public session label or "implicit").
   */
  constructor(
    readonly id: string,
    readonly label: string,
    readonly surface: AgentCursorBackend,
    theme: CursorTheme,
  ) {
    this.theme = theme;
  }

  /** True while the cursor is on screen. */
  get visible(): boolean {
    return this.enabled && this.#drawn !== null && this.visual.phase !== "hidden";
  }

  /** True when motion is reduced: glides jump and the pulse does not grow. */
  get reduced(): boolean {
    return this.reducedMotion === "on";
  }

  /** Shows or removes the cursor. A disabled cursor keeps its settings but has no overlay. */
  setEnabled(on: boolean): void {
    if (on === this.enabled) return;
    this.enabled = on;
    if (on) {
      // It reappears where it last went; a cursor that never moved appears on its first move.
      if (this.position) {
        this.#drawn = { ...this.position };
        this.#render(0);
        this.#armIdle();
      }
      return;
    }
    this.#stopAnimation();
    this.#clearIdle();
    this.#drawn = null;
    this.visual.phase = "hidden";
    this.surface.remove(this.id);
  }

  /** Switches theme; a shown cursor is redrawn in it. */
  setTheme(theme: CursorTheme, reducedMotion: ReducedMotion): void {
    this.theme = theme;
    this.reducedMotion = reducedMotion;
    this.fallback = null;
    if (this.visible) this.#render(0);
  }

  /**
   * Glides to `point` for an action. Resolves when the cursor arrives, when a newer move
   * preempts it, or at once when disabled, reduced or on its first appearance.
   *
   * @param durationMs Glide length; default `motion.glide_duration_ms`.
   */
  moveTo(
    point: Point,
    action: CursorAction,
    modifiers: readonly string[] = [],
    durationMs?: number,
  ): Promise<void> {
    this.position = { x: point.x, y: point.y };
    this.visual.requested_action = action;
    this.visual.resolved_action = this.theme.actions.includes(action) ? action : "idle";
    this.visual.modifiers = [...modifiers];
    if (!this.enabled) return Promise.resolve();
    this.#clearIdle();
    if (this.#glide) {
      this.visual.preempted_count++;
      this.#glide.arrived();
      this.#glide = null;
    }
    if (this.#pulseStart !== null) {
      this.visual.preempted_count++;
      this.#pulseStart = null;
    }
    const duration = this.reduced ? 0 : Math.max(0, durationMs ?? this.motion.glide_duration_ms);
    if (this.#drawn === null || duration === 0) {
      this.#drawn = { ...this.position };
      this.visual.phase = "idle";
      this.#render(0);
      this.#armIdle();
      return Promise.resolve();
    }
    const arrival = new Promise<void>((resolve) => {
      this.#glide = {
        path: glidePath(this.#drawn!, this.position!, this.motion),
        start: performance.now(),
        duration,
        arrived: resolve,
      };
    });
    this.visual.phase = "gliding";
    this.#tick();
    return arrival;
  }

  /** A click at the cursor: the pulse ring grows, then lingers for `dwell_after_click_ms`. Never awaited. */
  press(): void {
    if (!this.enabled || this.#drawn === null) return;
    this.#clearIdle();
    this.#pulseStart = performance.now();
    if (!this.#glide) this.visual.phase = "pressing";
    this.#tick();
  }

  /** Stops every timer and removes the overlay. */
  dispose(): void {
    this.#stopAnimation();
    this.#clearIdle();
    this.#drawn = null;
    this.visual.phase = "hidden";
    this.surface.remove(this.id);
  }

  /** One frame: advance the glide and the pulse, draw, and schedule the next while anything moves. */
  #tick = (): void => {
    this.#timer = null;
    const now = performance.now();
    if (this.#glide) {
      const glide = this.#glide;
      const t = (now - glide.start) / glide.duration;
      this.#drawn = glide.path(t);
      if (t >= 1) {
        this.#drawn = { ...this.position! };
        this.#glide = null;
        glide.arrived();
      }
    }
    let pulse = 0;
    if (this.#pulseStart !== null) {
      const elapsed = now - this.#pulseStart;
      const dwell = this.motion.dwell_after_click_ms;
      if (elapsed < PRESS_MS) {
        pulse = this.reduced ? 1 : Math.max(0.05, elapsed / PRESS_MS);
        this.visual.phase = "pressing";
      } else if (elapsed < PRESS_MS + dwell) {
        pulse = 1;
        this.visual.phase = "dwell";
      } else {
        this.#pulseStart = null;
      }
    }
    if (this.#glide) this.visual.phase = "gliding";
    else if (this.#pulseStart === null) this.visual.phase = "idle";
    this.#render(pulse);
    if (this.#glide || this.#pulseStart !== null) {
      this.#timer = setTimeout(this.#tick, FRAME_MS);
    } else {
      this.#armIdle();
    }
  };

  #render(pulse: number): void {
    if (!this.enabled || this.#drawn === null) return;
    if (this.visual.phase === "hidden") this.visual.phase = "idle";
    this.surface.draw(this.id, {
      point: { x: Math.round(this.#drawn.x), y: Math.round(this.#drawn.y) },
      style: this.theme.style,
      pulse,
      label: this.label,
    });
    this.visual.frame++;
  }

  #stopAnimation(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#glide?.arrived();
    this.#glide = null;
    this.#pulseStart = null;
  }

  #armIdle(): void {
    this.#clearIdle();
    const ms = this.motion.idle_hide_ms;
    if (ms <= 0 || !this.enabled) return;
    const timer = setTimeout(() => {
      this.#idleTimer = null;
      this.surface.hide(this.id);
      this.visual.phase = "hidden";
    }, ms);
    // An idle cursor never keeps the process alive.
    Deno.unrefTimer(timer as unknown as number);
    this.#idleTimer = timer;
  }

  #clearIdle(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }
}
