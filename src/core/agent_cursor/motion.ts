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
    description: "How far along the move the path's first control point sits (0..1)",
  },
  end_handle: {
    min: 0,
    max: 1,
    default: 0.3,
    description: "How far back from the target the path's second control point sits (0..1)",
  },
  arc_size: {
    min: 0,
    max: 1,
    default: 0.25,
    description: "Sideways bow of the path as a fraction of its length (0 straight .. 1)",
  },
  arc_flow: {
    min: -1,
    max: 1,
    default: 0,
    description: "Where the bow peaks: -1 near the start, 0 centred, 1 near the target",
  },
  spring: {
    min: 0.3,
    max: 1,
    default: 0.72,
    description: "Damping of the arrival (1 settles without overshoot; lower overshoots more)",
  },
  glide_duration_ms: {
    min: 0,
    max: 5000,
    default: 250,
    description: "Length of a glide in ms, and the most an action ever waits for it (0 jumps)",
  },
  dwell_after_click_ms: {
    min: 0,
    max: 5000,
    default: 80,
    description: "How long the click pulse lingers after the press, in ms (actions never wait for it)",
  },
  idle_hide_ms: {
    min: 0,
    max: 600000,
    default: 20000,
    description: "Hide the cursor after this many ms without a move (0 never hides)",
  },
  turn_radius: {
    min: 0,
    max: 2000,
    default: 24,
    description: "Moves shorter than this many pixels go straight, without a bow",
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
