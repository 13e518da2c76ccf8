import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { cursorSessionParam, sessionName } from "./_cursor_view.ts";
import { agentCursorsOf } from "../../src/features/agent_cursor/slot.ts";

/** Shows or removes a session's agent cursor. */
export default defineTool({
  name: "set_agent_cursor_enabled",
  title: "Set agent cursor enabled",
  description:
    "Show or hide a session's agent cursor: a click-through arrow that glides to each action's target and pulses on clicks, never in screenshots, gone at session end. Enabled, an action waits at most glide_duration_ms.",
  group: "session",
  input: z.strictObject({
    session: cursorSessionParam,
    enabled: z.boolean().describe("true shows the cursor (from the next action on), false removes it"),
  }),
  output: z.object({ session: z.string(), enabled: z.boolean() }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r1",
  capabilities: ["agent_cursor.set_enabled"],
  async run(ctx, args) {
    const surface = ctx.backend.agentCursor;
    if (args.enabled) {
      const reason = await surface.unavailableReason();
      if (reason !== null) {
        throw new DriverError("unsupported_platform", `The agent cursor cannot be shown here: ${reason}`, {
          hint: "run on an X11 desktop with the SHAPE extension, or leave the cursor disabled",
        });
      }
    }
    const cursor = agentCursorsOf(ctx.state).of(ctx.session, surface);
    cursor.setEnabled(args.enabled);
    const name = sessionName(ctx.session);
    return ok(
      { session: name, enabled: cursor.enabled },
      `✅ Agent cursor ${cursor.enabled ? "enabled" : "disabled"} for session '${name}'.`,
    );
  },
});
