/**
 * The closed action result every action tool returns on success (contract.md §2.1).
 *
 * @module
 */
import { z } from "../lib/schema/mod.ts";

/** What the driver knows about the effect of an action. */
export const Effect = z.enum(["confirmed", "partial", "unverifiable", "suspected_noop", "refused"]);
/** Which mechanism delivered it. */
export const Route = z.enum([
  "accessibility",
  "synthetic_events",
  "global_input",
  "system_api",
  "dom",
  "trusted_input",
]);

/** The closed ActionResult schema (additionalProperties: false). */
export const ActionResultSchema = z.strictObject({
  effect: Effect,
  route: Route,
  delivery: z.strictObject({
    mode: z.enum(["background", "foreground", "not_applicable", "unknown"]),
    delivered_count: z.number().int().min(0).optional(),
  }).optional(),
  evidence: z.array(z.strictObject({ kind: z.enum(["value_readback", "window_change"]) })).optional(),
  points: z.array(z.strictObject({
    x: z.number(),
    y: z.number(),
    coordinate_space: z.enum(["screenshot", "screen"]),
    screenshot_id: z.string().optional(),
    screen: z.strictObject({ x: z.number(), y: z.number() }),
  })).optional(),
  escalation: z.strictObject({
    target: z.enum(["pixel", "foreground", "page", "session"]),
    reason: z.enum([
      "route_unavailable",
      "delivery_failed",
      "effect_unconfirmed",
      "suspected_noop",
      "permission_required",
    ]),
  }).optional(),
  /** What `return_state` asked for (src/engine/successor_state.ts). */
  successor_state: z.record(z.string(), z.unknown()).optional().meta({ listed: false }),
});

/** An action result. */
export type ActionResult = z.infer<typeof ActionResultSchema>;

/**
 * Checks the invariants the schema cannot express: `confirmed` needs evidence,
 * `partial` needs a delivered count, `refused` carries neither delivery nor evidence.
 *
 * @throws {TypeError} when a tool built an inconsistent result (a driver bug).
 */
export function checkActionResult(result: ActionResult): ActionResult {
  if (result.effect === "confirmed" && !result.evidence?.length) {
    throw new TypeError("ActionResult: confirmed without evidence");
  }
  if (result.effect === "partial" && result.delivery?.delivered_count === undefined) {
    throw new TypeError("ActionResult: partial without delivered_count");
  }
  if (result.effect === "refused" && (result.delivery || result.evidence)) {
    throw new TypeError("ActionResult: refused with delivery or evidence");
  }
  return result;
}
