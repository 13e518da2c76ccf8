/**
 * The agent cursor's motion settings (set_agent_cursor_motion): their ranges,
 * defaults and meaning, written once for the tool schema and the animation.
 *
 * @module
 */

/** The nine motion numbers, as set_agent_cursor_motion and get_agent_cursor_state carry them. */
export interface CursorMotion {
  start_handle: number;
  end_handle: number;
  arc_size: number;
  arc_flow: number;
  spring: number;
  glide_duration_ms: number;
  dwell_after_click_ms: number;
  idle_hide_ms: number;
  turn_radius: number;
}

/** Names of the motion settings, in the order results list them. */
export const MOTION_KEYS = [
  "start_handle",
  "end_handle",
  "arc_size",
  "arc_flow",
  "spring",
  "glide_duration_ms",
  "dwell_after_click_ms",
  "idle_hide_ms",
  "turn_radius",
] as const satisfies readonly (keyof CursorMotion)[];

/** Range, default and meaning of each setting. */
export const MOTION_LIMITS: Readonly<
  Record<keyof CursorMotion, { min: number; max: number; default: number; description: string }>
> = {
  start_handle: {
    min: 0,
    max: 1,
    default: 0.3,
    description: "First control point, fraction along the move",
  },
  end_handle: {
    min: 0,
    max: 1,
    default: 0.3,
    description: "Second control point, fraction back from the target",
  },
  arc_size: {
    min: 0,
    max: 1,
    default: 0.25,
    description: "Sideways bow, fraction of the length (0 straight)",
  },
  arc_flow: {
    min: -1,
    max: 1,
    default: 0,
    description: "Where the bow peaks: -1 start, 0 middle, 1 target",
  },
  spring: {
    min: 0.3,
    max: 1,
    default: 0.72,
    description: "Arrival damping (1 no overshoot)",
  },
  glide_duration_ms: {
    min: 0,
    max: 5000,
    default: 250,
    description: "Glide length in ms, the most an action waits (0 jumps)",
  },
  dwell_after_click_ms: {
    min: 0,
    max: 5000,
    default: 80,
    description: "Click pulse linger in ms (never waited for)",
  },
  idle_hide_ms: {
    min: 0,
    max: 600000,
    default: 20000,
    description: "Hide after this many idle ms (0 never)",
  },
  turn_radius: {
    min: 0,
    max: 2000,
    default: 24,
    description: "Moves shorter than this (pixels) go straight",
  },
};

/** The defaults, as a fresh object. */
export function defaultMotion(): CursorMotion {
  return Object.fromEntries(
    MOTION_KEYS.map((key) => [key, MOTION_LIMITS[key].default]),
  ) as unknown as CursorMotion;
}

/** Applies a partial update: numbers replace, null and absent keep the current value. */
export function mergeMotion(
  current: CursorMotion,
  patch: Partial<Record<keyof CursorMotion, number | null | undefined>>,
): CursorMotion {
  const next = { ...current };
  for (const key of MOTION_KEYS) {
    const value = patch[key];
    if (typeof value === "number") next[key] = value;
  }
  return next;
}
