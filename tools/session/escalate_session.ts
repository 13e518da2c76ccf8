import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { CapturePolicyFields, capturePolicyOf, capturePolicyView } from "./_session_view.ts";

/** Deprecated: unlocks desktop scope for a legacy capture_scope "auto" session. */
export default defineTool({
  name: "escalate_session",
  title: "Escalate session (deprecated)",
  description:
    "Deprecated compatibility tool for legacy capture-scope sessions: unlock desktop scope for a " +
    'session started with capture_scope "auto". Prefer a per-call target {kind:"desktop"}.',
  group: "session",
  input: z.strictObject({
    session: z.string().min(1).max(200),
    reason: z.enum([
      "ax_tree_pixel_mismatch",
      "background_delivery_failed",
      "foreground_ineffective",
      "no_window_target",
      "other",
    ]),
    detail: z.string().max(200).optional(),
  }),
  output: z.object(CapturePolicyFields),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  risk: "r2",
  legacy: true,
  needsDesktop: false,
  capabilities: ["session.capture_scope.escalate"],
  run(ctx, args) {
    const session = ctx.session;
    const policy = capturePolicyOf(ctx, session);
    if (policy.captureScope === "window") {
      throw new DriverError(
        "desktop_scope_disabled",
        `Session "${args.session}" was started with capture_scope "window"`,
        {
          session: args.session,
          hint: 'start a session with capture_scope "auto", or use target {kind:"desktop"} per call',
        },
      );
    }
    if (policy.captureScope === "desktop" || policy.desktopUnlocked) {
      throw new DriverError(
        "desktop_already_active",
        `Session "${args.session}" already has the desktop scope`,
        {
          session: args.session,
        },
      );
    }
    ctx.state.capturePolicies.set(session.id, {
      ...policy,
      desktopUnlocked: true,
      escalationReason: args.reason,
      escalationDetail: args.detail ?? null,
    });
    return Promise.resolve(
      ok(capturePolicyView(ctx, session), `✅ Session '${args.session}' may use the desktop scope.`),
    );
  },
});
