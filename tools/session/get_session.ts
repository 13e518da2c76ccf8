import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { connectionSession, labelParam, SessionRow, sessionRow } from "./_session_view.ts";

/** Content-free status of one session of this connection. */
export default defineTool({
  name: "get_session",
  title: "Get session",
  description: "Read content-free lifecycle status (state, transport, idle and expiry times) for one " +
    "session of this connection: the label given, or the implicit session.",
  group: "session",
  input: z.strictObject({ session: labelParam }),
  output: SessionRow,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  needsDesktop: false,
  capabilities: ["session.lifecycle.read"],
  sessionRequiring: false,
  run(ctx, args) {
    const session = connectionSession(
      ctx,
      args.session,
      "call start_session, or any tool with this session label",
    );
    const row = sessionRow(ctx, session);
    return Promise.resolve(
      ok(row, `✅ Session ${row.session ?? "(implicit)"}: ${row.state}, idle ${row.idle_seconds}s`),
    );
  },
});
