import { z } from "../../src/lib/schema/mod.ts";
import {
  type CursorMotion,
  mergeMotion,
  MOTION_KEYS,
  MOTION_LIMITS,
} from "../../src/features/agent_cursor/motion.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { cursorSessionParam, MotionSchema, sessionName } from "./_cursor_view.ts";
import { agentCursorsOf } from "../../src/features/agent_cursor/slot.ts";

const motionParams = Object.fromEntries(
  MOTION_KEYS.map((key) => {
    const limit = MOTION_LIMITS[key];
    return [
      key,
      z.number().min(limit.min).max(limit.max).nullable().optional().describe(
        `${limit.description}; default ${limit.default}`,
      ),
    ];
  }),
) as Record<keyof CursorMotion, z.OptionalSchema<z.NullableSchema<z.NumberSchema>>>;

/** Configures a session cursor's movement physics and visibility timing. */
export default defineTool({
  name: "set_agent_cursor_motion",
  title: "Set agent cursor motion",
  description:
    "Tune a session's agent cursor motion: glide path (start_handle, end_handle, arc_size, arc_flow, turn_radius), spring, glide_duration_ms (the most an action waits), dwell_after_click_ms, idle_hide_ms; null/absent keeps a value. Returns all nine.",
  group: "session",
  input: z.strictObject({ session: cursorSessionParam, ...motionParams }),
  output: z.object({ session: z.string(), motion: MotionSchema }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["agent_cursor.set_motion"],
  run(ctx, args) {
    const cursor = agentCursorsOf(ctx.state).of(ctx.session, ctx.backend.agentCursor);
    cursor.motion = mergeMotion(cursor.motion, args);
    const name = sessionName(ctx.session);
    const motion = { ...cursor.motion };
    return Promise.resolve(
      ok(
        { session: name, motion },
        `✅ Agent cursor motion for session '${name}': ` +
          MOTION_KEYS.map((key) => `${key}=${motion[key]}`).join(", "),
      ),
    );
  },
});
