/**
 * How sessions appear in tool results: content-free status, never internal ids.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import type { CapturePolicy } from "../../src/kernel/runtime_state.ts";
import type { Session } from "../../src/kernel/session.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { recordingOwnedBy } from "../../src/features/recording/slot.ts";
import { sessionCursor } from "../../src/features/agent_cursor/slot.ts";

/** Schema of one session row (contract.md §1.2 get_session). */
export const SessionRow = z.object({
  session: z.string().nullable(),
  implicit: z.boolean(),
  state: z.enum(["active", "ending"]),
  client_kind: z.enum(["cli", "direct", "mcp", "python_sdk", "typescript_sdk"]),
  transport: z.enum(["cli", "daemon", "mcp_stdio", "mcp_http"]),
  cursor_visible: z.boolean(),
  recording_active: z.boolean(),
  idle_seconds: z.number().int(),
  expires_in_seconds: z.number().int(),
});

/**
 * The session of this connection with this label (the implicit one without).
 *
 * @throws {DriverError} `session_not_started` with `hint` when there is none.
 */
export function connectionSession(ctx: ToolContext, label: string | undefined, hint: string): Session {
  const session = ctx.state.sessions.peek(ctx.lease, label);
  if (!session) {
    throw new DriverError(
      "session_not_started",
      `No session ${label ? `"${label}"` : "(implicit)"} on this connection`,
      { hint },
    );
  }
  return session;
}

/** The row of a session. */
export function sessionRow(ctx: ToolContext, session: Session): z.infer<typeof SessionRow> {
  const idle = Math.floor((Date.now() - session.lastUsedAt) / 1000);
  const transport = session.transport === "grpc" ? "daemon" : session.transport;
  return {
    session: session.label,
    implicit: session.label === null,
    state: session.state === "ending" ? "ending" : "active",
    client_kind: session.transport === "cli" ? "cli" : session.transport.startsWith("mcp") ? "mcp" : "direct",
    transport,
    cursor_visible: sessionCursor(ctx.state, session.id)?.visible ?? false,
    recording_active: recordingOwnedBy(ctx.state, session.id),
    idle_seconds: idle,
    expires_in_seconds: Math.max(0, Math.floor(ctx.state.sessions.idleTtlMs / 1000) - idle),
  };
}

/** Schema of the legacy capture-scope fields. */
export const CapturePolicyFields = {
  session: z.string(),
  capture_scope: z.enum(["auto", "window", "desktop"]),
  effective_scope: z.enum(["window", "desktop"]),
  desktop_unlocked: z.boolean(),
  escalation_reason: z.string().nullable(),
  escalation_detail: z.string().nullable(),
};

/** A session's legacy capture policy: "auto", still locked to windows, until set otherwise. */
export function capturePolicyOf(ctx: ToolContext, session: Session): CapturePolicy {
  return ctx.state.capturePolicies.get(session.id) ??
    { captureScope: "auto", desktopUnlocked: false, escalationReason: null, escalationDetail: null };
}

/** The legacy capture-scope fields of a session. */
export function capturePolicyView(ctx: ToolContext, session: Session) {
  const policy = capturePolicyOf(ctx, session);
  return {
    session: session.label ?? "implicit",
    capture_scope: policy.captureScope,
    effective_scope: policy.captureScope === "desktop" || policy.desktopUnlocked
      ? "desktop" as const
      : "window" as const,
    desktop_unlocked: policy.captureScope === "desktop" || policy.desktopUnlocked,
    escalation_reason: policy.escalationReason,
    escalation_detail: policy.escalationDetail,
  };
}

/** The label parameter of session tools. */
export const labelParam = z.string().max(200).optional().describe(
  "Session label; omit it for this connection's implicit session",
);
