import { z } from "../../src/lib/schema/mod.ts";
import { selectTheme } from "../../src/features/agent_cursor/store.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import {
  cursorSessionParam,
  ReducedMotionSchema,
  sessionName,
  ThemeSchema,
  themeView,
} from "./_cursor_view.ts";
import { agentCursorsOf } from "../../src/features/agent_cursor/slot.ts";

/** Selects an installed theme for a session's cursor. */
export default defineTool({
  name: "set_agent_cursor_theme",
  title: "Set agent cursor theme",
  description:
    "Select an installed cursor theme for a session's agent cursor: cua.default, cua.contrast, cua.mono, or JSON files in ~/.cua-driver/cursor-themes/. reduced_motion on makes glides jump; auto follows the desktop.",
  group: "session",
  input: z.strictObject({
    session: cursorSessionParam,
    theme_id: z.string().min(1).max(200).describe("Id of an installed theme, e.g. cua.default"),
    reduced_motion: ReducedMotionSchema.default("auto").describe("auto, on or off (default auto)"),
  }),
  output: z.object({ session: z.string(), theme: ThemeSchema }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["agent_cursor.set_theme"],
  run(ctx, args) {
    const cursor = agentCursorsOf(ctx.state).of(ctx.session, ctx.backend.agentCursor);
    const theme = selectTheme(cursor, args.theme_id, args.reduced_motion);
    const name = sessionName(ctx.session);
    return Promise.resolve(
      ok(
        { session: name, theme: themeView(theme, cursor.reducedMotion, cursor.fallback) },
        `✅ Agent cursor theme for session '${name}': ${theme.id} ${theme.version}` +
          ` (reduced_motion ${cursor.reducedMotion})`,
      ),
    );
  },
});
