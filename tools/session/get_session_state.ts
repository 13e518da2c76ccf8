import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { CapturePolicyFields, capturePolicyView, connectionSession, labelParam } from "./_session_view.ts";

/** Deprecated alias: a live session's legacy capture policy. */
export default defineTool({
  name: "get_session_state",
  title: "Get session state (deprecated)",
  description: "Deprecated compatibility alias that reads a live session's legacy capture-scope policy.",
  group: "session",
  input: z.strictObject({ session: labelParam }),
  output: z.object(CapturePolicyFields),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  legacy: true,
  needsDesktop: false,
  capabilities: ["session.capture_scope.read"],
  sessionRequiring: false,
  run(ctx, args) {
    const session = connectionSession(ctx, args.session, "call start_session first");
    return Promise.resolve(
      ok(capturePolicyView(ctx, session), `✅ Session '${session.label ?? "implicit"}' policy`),
    );
  },
});
