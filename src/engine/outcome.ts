/**
 * Building the closed ActionResult and its text from what an action did.
 *
 * @module
 */
import { type ActionResult, checkActionResult } from "./action_result.ts";
import { ok, type ToolResult } from "../kernel/result.ts";

/** What an executed action reports. */
export interface Outcome {
  effect: ActionResult["effect"];
  route: ActionResult["route"];
  mode: NonNullable<ActionResult["delivery"]>["mode"];
  /** How many discrete inputs landed (characters, clicks, detents). */
  deliveredCount?: number;
  evidence?: NonNullable<ActionResult["evidence"]>[number]["kind"][];
  escalation?: ActionResult["escalation"];
  /** One human-readable line: what was done and how it is known. */
  summary: string;
  /** The points it aimed at: as given, and as screen points. */
  points?: NonNullable<ActionResult["points"]>;
}

/** Turns an outcome into the tool result every action tool returns. */
export function actionResult(outcome: Outcome): ToolResult {
  const result: ActionResult = {
    effect: outcome.effect,
    route: outcome.route,
    delivery: {
      mode: outcome.mode,
      ...(outcome.deliveredCount !== undefined ? { delivered_count: outcome.deliveredCount } : {}),
    },
  };
  if (outcome.evidence?.length) result.evidence = outcome.evidence.map((kind) => ({ kind }));
  if (outcome.points?.length) result.points = outcome.points;
  if (outcome.escalation) result.escalation = outcome.escalation;
  const icon = outcome.effect === "confirmed" ? "✅" : outcome.effect === "unverifiable" ? "☑️" : "⚠️";
  const tail = outcome.effect === "confirmed"
    ? " (read back)"
    : outcome.effect === "unverifiable"
    ? " (delivered; the app exposes no read-back: observe again to check)"
    : outcome.effect === "suspected_noop"
    ? " (nothing changed that could be read back)"
    : "";
  const points = (outcome.points ?? []).map((p) =>
    ` [${p.coordinate_space} (${p.x}, ${p.y})${p.screenshot_id ? ` of ${p.screenshot_id}` : ""} = screen ` +
    `(${p.screen.x}, ${p.screen.y})]`
  ).join("");
  return ok(
    checkActionResult(result) as unknown as Record<string, unknown>,
    `${icon} ${outcome.summary}${tail}${points} [route=${outcome.route} delivery=${outcome.mode}]`,
  );
}
