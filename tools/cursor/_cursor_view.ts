/**
 * How the agent cursor appears in tool results (contract.md §1.3): its theme,
 * motion and playback state, schemas written once for the four cursor tools.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import type { AgentCursor } from "../../src/features/agent_cursor/cursor.ts";
import { type CursorMotion, defaultMotion, MOTION_KEYS } from "../../src/features/agent_cursor/motion.ts";
import { CURSOR_ACTIONS, type CursorTheme } from "../../src/features/agent_cursor/themes.ts";
import type { Session } from "../../src/kernel/session.ts";

/** The required session label of the cursor tools. */
export const cursorSessionParam = z.string().min(1).max(200).describe(
  'Session owning the cursor ("default": this connection\'s); pass it on the actions it follows',
);

/** reduced_motion of a theme. */
export const ReducedMotionSchema = z.enum(["auto", "on", "off"]);

/** The nine motion numbers. */
export const MotionSchema = z.object(
  Object.fromEntries(MOTION_KEYS.map((key) => [key, z.number()])) as Record<
    keyof CursorMotion,
    z.NumberSchema
  >,
);

/** A theme as results show it. */
export const ThemeSchema = z.object({
  id: z.string(),
  version: z.string(),
  profile: z.string(),
  reduced_motion: ReducedMotionSchema,
  fallback: z.string().nullable(),
});

/** The semantic playback state. */
export const VisualStateSchema = z.object({
  requested_action: z.enum(CURSOR_ACTIONS),
  resolved_action: z.enum(CURSOR_ACTIONS),
  modifiers: z.array(z.string()),
  phase: z.string(),
  frame: z.number().int().min(0),
  preempted_count: z.number().int().min(0),
});

/** The session name results carry: the label, or "implicit". */
export function sessionName(session: Session): string {
  return session.label ?? "implicit";
}

/** A cursor's theme as results show it. */
export function themeView(
  theme: CursorTheme,
  reducedMotion: z.infer<typeof ReducedMotionSchema>,
  fallback: string | null,
): z.infer<typeof ThemeSchema> {
  return {
    id: theme.id,
    version: theme.version,
    profile: theme.profile,
    reduced_motion: reducedMotion,
    fallback,
  };
}

/** A cursor's motion, or the defaults for a session without a cursor. */
export function motionView(cursor: AgentCursor | undefined): CursorMotion {
  return { ...(cursor?.motion ?? defaultMotion()) };
}
