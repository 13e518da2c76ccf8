/**
 * One recorded turn, from the call's arguments to its folder: evidence captured before
 * the call and right after it (on the action path), then action.json, evidence.json,
 * the PNGs and click.png assembled and written off the action path.
 *
 * @module
 */
import type { ObservedCall } from "../../kernel/call_observer.ts";
import type { ToolResult } from "../../kernel/result.ts";
import { type Captured, captureEvidence, type EvidenceStatus } from "./evidence.ts";
import { CLICK_TOOLS, isPrivateTurn, redactArguments } from "./policy.ts";
import { clickPointIn, planTurn, type TurnPlan } from "./turn_target.ts";
import type { TurnContent } from "./turn_writer.ts";

/** Longest result_summary kept in action.json. */
const SUMMARY_MAX_CHARS = 4_000;

/** Refusal codes that fire before the target was resolved (nothing was aimed at). */
const TARGET_REFUSALS = new Set([
  "invalid_action_target",
  "window_target_not_found",
  "ambiguous_window_target",
  "window_target_resolution_failed",
  "window_stale",
  "stale_element_token",
  "invalid_element_token",
  "snapshot_id_required",
  "element_index_required",
  "invalid_snapshot_id",
  "conflicting_element_target",
  "screenshot_context_missing",
  "invalid_arguments",
]);

/** What a turn knows once its call started. */
export interface StartedTurn {
  readonly number: number;
  readonly call: ObservedCall;
  readonly plan: TurnPlan | null;
  readonly before: Captured | null;
  /** Milliseconds from the recording's start to the call's start. */
  readonly tStartMs: number;
}

/** Plans the turn and captures its before evidence (nothing for a private turn). */
export async function startTurn(number: number, call: ObservedCall, tStartMs: number): Promise<StartedTurn> {
  if (isPrivateTurn(call.tool.name, call.args)) return { number, call, plan: null, before: null, tStartMs };
  const plan = await planTurn(call.ctx, call.args);
  const before = await captureEvidence(call.ctx.backend, plan.target);
  return { number, call, plan, before, tStartMs };
}

/** Captures the after evidence (on the action path, right after the call returned). */
export async function captureAfter(turn: StartedTurn): Promise<Captured | null> {
  return turn.plan ? await captureEvidence(turn.call.ctx.backend, turn.plan.target) : null;
}

/** Builds everything the turn folder holds. */
export function turnContent(
  turn: StartedTurn,
  after: Captured | null,
  result: ToolResult,
  tEndMs: number,
  nowMs: number = Date.now(),
): TurnContent {
  const { call, plan, before } = turn;
  const tool = call.tool.name;
  const { arguments: args, redacted } = redactArguments(tool, call.args);
  const click = clickOf(turn, result);
  const action: Record<string, unknown> = {
    tool,
    arguments: args,
    result_summary: summaryOf(result),
    result_error: isFailure(result),
    timestamp: (nowMs / 1000).toFixed(3),
    t_ms_from_session_start: tEndMs,
    t_start_ms_from_session_start: turn.tStartMs,
  };
  const structured = result.structuredContent ?? {};
  if (typeof structured.effect === "string") action.result_effect = structured.effect;
  const code = structured.code ?? (structured.refusal as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") action.result_code = code;
  if (click.point) action.click_point = click.point;
  if (redacted.length) action.redacted = redacted;
  if (plan) action.replay = replayContext(plan);
  else action.private = true;
  const suppressed: EvidenceStatus = { status: "unavailable", classification: "privacy_suppressed" };
  return {
    action,
    evidence: {
      schema: "cua-turn-evidence/v1",
      before: before
        ? { state: before.stateStatus, screenshot: before.shotStatus }
        : { state: suppressed, screenshot: suppressed },
      after: after
        ? { state: after.stateStatus, screenshot: after.shotStatus }
        : { state: suppressed, screenshot: suppressed },
      click: plan ? click.status : CLICK_TOOLS.has(tool) ? suppressed : click.status,
    },
    before: { image: before?.shot?.image ?? null, state: before?.state ?? null },
    after: { image: after?.shot?.image ?? null, state: after?.state ?? null },
    click: click.point,
  };
}

/** True when the call failed or refused (isError, or the browser refusal shape). */
export function isFailure(result: ToolResult): boolean {
  return result.isError === true || result.structuredContent?.status === "refused";
}

/** The first text part of a result, shortened. */
export function summaryOf(result: ToolResult): string {
  const text = result.content.find((part) => part.type === "text")?.text ?? "";
  return text.length > SUMMARY_MAX_CHARS ? `${text.slice(0, SUMMARY_MAX_CHARS)}…` : text;
}

function clickOf(
  turn: StartedTurn,
  result: ToolResult,
): { point: { x: number; y: number } | null; status: EvidenceStatus } {
  if (!CLICK_TOOLS.has(turn.call.tool.name)) {
    return { point: null, status: { status: "not_applicable", classification: "not_a_click_action" } };
  }
  const structured = result.structuredContent ?? {};
  if (isFailure(result) || structured.effect === "refused") {
    const code = String(structured.code ?? "");
    return {
      point: null,
      status: {
        status: "not_applicable",
        classification: TARGET_REFUSALS.has(code)
          ? "action_refused_before_target_resolution"
          : "action_refused_before_dispatch",
      },
    };
  }
  const shot = turn.before?.shot;
  const point = shot && turn.plan ? clickPointIn(turn.plan, shot.bounds, shot.image.width) : null;
  if (!point) return { point: null, status: { status: "unavailable", classification: "capture_failed" } };
  return { point, status: { status: "captured" } };
}

/** What replay_trajectory needs to re-aim a turn in another session. */
function replayContext(plan: TurnPlan): Record<string, unknown> {
  const context: Record<string, unknown> = {
    target: plan.target.kind === "window"
      ? { kind: "window", pid: plan.target.pid, window_id: plan.target.windowId }
      : { kind: "display" },
  };
  if (plan.element) {
    context.element = { role: plan.element.role, label: plan.element.label, ordinal: plan.element.ordinal };
  }
  if (plan.pixel?.capture) {
    context.pixel_space = {
      width: plan.pixel.capture.imageWidth,
      height: plan.pixel.capture.imageHeight,
      from_zoom: plan.pixel.fromZoom,
    };
  }
  return context;
}
