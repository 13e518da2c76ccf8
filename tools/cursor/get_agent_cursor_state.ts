import { z } from "../../src/lib/schema/mod.ts";
import { DEFAULT_THEME_ID, findTheme } from "../../src/features/agent_cursor/themes.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  cursorSessionParam,
  MotionSchema,
  motionView,
  sessionName,
  ThemeSchema,
  themeView,
  VisualStateSchema,
} from "./_cursor_view.ts";
import { sessionCursor } from "../../src/features/agent_cursor/slot.ts";

/** Reads a session cursor's theme, playback, position, visibility and motion. */
export default defineTool({
  name: "get_agent_cursor_state",
  title: "Get agent cursor state",
  description:
    "A session's agent cursor: enabled, position (screen points; null before its first move), theme, playback phase and motion settings.",
  group: "session",
  input: z.strictObject({ session: cursorSessionParam }),
  output: z.object({
    session: z.string(),
    enabled: z.boolean(),
    position: z.object({ x: z.number(), y: z.number() }).nullable(),
    theme: ThemeSchema,
    visual_state: VisualStateSchema,
    motion: MotionSchema,
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  capabilities: ["agent_cursor.state"],
  run(ctx) {
    const cursor = sessionCursor(ctx.state, ctx.session.id);
    const name = sessionName(ctx.session);
    const visual = cursor ? { ...cursor.visual, modifiers: [...cursor.visual.modifiers] } : {
      requested_action: "idle" as const,
      resolved_action: "idle" as const,
      modifiers: [],
      phase: "hidden",
      frame: 0,
      preempted_count: 0,
    };
    const state = {
      session: name,
      enabled: cursor?.enabled ?? false,
      position: cursor?.position ? { x: cursor.position.x, y: cursor.position.y } : null,
      theme: cursor
        ? themeView(cursor.theme, cursor.reducedMotion, cursor.fallback)
        : themeView(findTheme(DEFAULT_THEME_ID)!, "auto", null),
      visual_state: visual,
      motion: motionView(cursor),
    };
    const where = state.position ? `at (${state.position.x}, ${state.position.y})` : "not yet moved";
    return Promise.resolve(
      ok(
        state,
        `Agent cursor of session '${name}': ${state.enabled ? "enabled" : "disabled"}, ${where}, ` +
          `${visual.phase}, theme ${state.theme.id}`,
      ),
    );
  },
});
