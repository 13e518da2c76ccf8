import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { labelParam } from "./_session_view.ts";

/** Ends a session; its cleanup runs exactly once. */
export default defineTool({
  name: "end_session",
  title: "End session",
  description:
    "End a session of this connection and run its cleanup (tokens, screenshots, held buttons, cursor, recording) once; its running calls are aborted (input stops) and awaited up to 3 s. Idempotent; the label refuses calls (session_ended) until start_session revives it.",
  group: "session",
  input: z.strictObject({ session: labelParam }),
  output: z.object({ session: z.string(), active: z.literal(false) }),
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  risk: "r1",
  needsDesktop: false,
  capabilities: ["session.lifecycle.end"],
  sessionRequiring: false,
  async run(ctx, args) {
    const name = args.session && args.session !== "default" ? args.session : "implicit";
    const result = await ctx.state.sessions.end(ctx.lease, args.session);
    if (result.pending) {
      throw new DriverError(
        "session_cleanup_pending",
        `Session "${name}" ends when its running call returns (it was aborted)`,
        {
          session: name,
          cleanup_complete: false,
          cleanup_in_progress: true,
          hint: "call end_session again to check",
        },
      );
    }
    if (result.failedHooks.length) {
      throw new DriverError("session_cleanup_partial", `Session "${name}" ended but some cleanup failed`, {
        session: name,
        cleanup_complete: false,
        failed_hooks: result.failedHooks.map((hook) => ({ hook, error: "cleanup failed" })),
      });
    }
    return ok({ session: name, active: false }, `✅ Session '${name}' ended.`);
  },
});
