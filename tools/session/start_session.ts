import { z } from "../../src/lib/schema/mod.ts";
import { requireInstalledTheme, selectTheme } from "../../src/features/agent_cursor/store.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { CapturePolicyFields, capturePolicyView, labelParam } from "./_session_view.ts";
import { agentCursorsOf } from "../../src/features/agent_cursor/slot.ts";

/** Creates, returns or revives a lifecycle session. */
export default defineTool({
  name: "start_session",
  title: "Start session",
  description: "Optionally create or return a lifecycle session before acting; the only way to revive an " +
    "ended label. A session is lifecycle identity (element tokens, screenshots, cursor, recording), never " +
    "authorization.",
  group: "session",
  input: z.strictObject({
    session: labelParam,
    capture_scope: z.enum(["auto", "window", "desktop"]).optional().describe(
      "Deprecated legacy capture policy",
    ),
    cursor_theme: z.strictObject({
      theme_id: z.string().min(1).max(200),
      reduced_motion: z.enum(["auto", "on", "off"]).optional(),
    }).nullable().optional(),
  }),
  output: z.object({ ...CapturePolicyFields, active: z.literal(true), revived: z.boolean() }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["session.lifecycle.start", "session.capture_scope"],
  // The run starts the session itself: the registry's resolve would refuse an ended label.
  sessionRequiring: false,
  run(ctx, args) {
    // A theme that is not installed is refused before anything starts.
    const theme = args.cursor_theme ? requireInstalledTheme(args.cursor_theme.theme_id) : null;
    const { session, revived } = ctx.state.sessions.start(ctx.lease, ctx.transport, args.session);
    // The theme applies before the cursor first shows.
    if (theme) {
      const cursor = agentCursorsOf(ctx.state).of(session, ctx.backend.agentCursor);
      selectTheme(cursor, theme.id, args.cursor_theme?.reduced_motion ?? "auto");
    }
    if (args.capture_scope && !ctx.state.capturePolicies.has(session.id)) {
      ctx.state.capturePolicies.set(session.id, {
        captureScope: args.capture_scope,
        desktopUnlocked: false,
        escalationReason: null,
        escalationDetail: null,
      });
    }
    const view = capturePolicyView(ctx, session);
    return Promise.resolve(ok({ ...view, active: true, revived }, `✅ Session '${view.session}' is active.`));
  },
});
