/**
 * verify_state predicates: their closed schema (contract.md §1.4) and their evaluation
 * against one observation of a window. Evaluation is three-valued: a predicate is
 * satisfied or unsatisfied only on trusted, unambiguous data, and unknown (with a reason)
 * otherwise, so untrusted data can never satisfy it.
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import type { AxNode, AxTree } from "../../src/ports/accessibility.ts";
import type { WindowInfo } from "../../src/ports/windows.ts";

/** One predicate: a window part, an element part, or both (all parts ANDed). */
export const PredicateSchema = z.strictObject({
  window: z.strictObject({
    exists: z.boolean().nullable().optional().describe("Exists (true) or is gone (false)"),
    bounds: z.strictObject({
      x: z.number(),
      y: z.number(),
      width: z.number(),
      height: z.number(),
      tolerance_px: z.number().min(0).max(100).optional().describe(
        "Allowed difference per value (default 0)",
      ),
    }).nullable().optional().describe("Client area, screen points"),
  }).nullable().optional(),
  element: z.strictObject({
    selector: z.strictObject({
      role: z.string().min(1).optional().describe(
        'Role as get_window_state shows it, or its neutral name ("button", "check_box", "label")',
      ),
      label_contains: z.string().min(1).optional().describe(
        "Case-sensitive substring of the label",
      ),
      nth: z.number().int().min(0).max(999).optional().describe(
        "Which of several matches, in tree order (a multi_match lists them with nth and frame)",
      ),
    }).describe("Which showing element: must match exactly one, or pick one with nth"),
    exists: z.literal(true).optional().describe("Implied when nothing else is checked"),
    enabled: z.boolean().nullable().optional(),
    selected: z.boolean().nullable().optional().describe("Checked or selected"),
    value_equals: z.string().nullable().optional().describe("The element's full text or value, exactly"),
  }).nullable().optional(),
});

/** A predicate as parsed. */
export type Predicate = z.output<typeof PredicateSchema>;

/** Why a predicate is unknown (contract.md §1.4). */
export type UnknownReason =
  | "invalid_predicate"
  | "unsupported_predicate"
  | "untrusted_source"
  | "multi_match"
  | "target_missing"
  | "observation_unavailable"
  | "stability_unproven";

/** The verdict on one predicate for one sample. */
export interface Verdict {
  status: "satisfied" | "unsatisfied" | "unknown";
  reason: UnknownReason | null;
  observed: unknown;
}

/** What one sample saw. */
export interface Observation {
  /** The window, or null when it is gone (or now belongs to another process). */
  window: WindowInfo | null;
  /** Set when the window list could not be read. */
  windowError: string | null;
  /** The window's tree, when an element predicate needed it and the window exists. */
  tree: AxTree | null;
  /** Set when the tree could not be read or is degraded (empty). */
  treeError: string | null;
}

const MAX_OBSERVED_CHARS = 2000;
const MAX_CANDIDATES = 8;

/** A predicate's static problem (it can never be evaluated), or null. */
export function predicateProblem(predicate: Predicate): string | null {
  const { window, element } = predicate;
  if (!window && !element) return "a predicate needs a window or an element part";
  if (window && window.exists === false && window.bounds) {
    return "window.bounds cannot hold for a window that is gone";
  }
  if (element && element.selector.role === undefined && element.selector.label_contains === undefined) {
    return "element.selector needs role or label_contains";
  }
  return null;
}

/** Evaluates one predicate against one observation. */
export async function evaluate(ctx: ToolContext, predicate: Predicate, seen: Observation): Promise<Verdict> {
  const problem = predicateProblem(predicate);
  if (problem !== null) return { status: "unknown", reason: "invalid_predicate", observed: { problem } };
  const parts: Verdict[] = [];
  const observed: Record<string, unknown> = {};
  if (predicate.window) {
    const verdict = evaluateWindow(predicate.window, seen);
    parts.push(verdict);
    observed.window = verdict.observed;
  }
  if (predicate.element) {
    const verdict = await evaluateElement(ctx, predicate.element, seen);
    parts.push(verdict);
    observed.element = verdict.observed;
  }
  const shown = parts.length === 1 ? parts[0].observed : observed;
  const failed = parts.find((p) => p.status === "unsatisfied");
  if (failed) return { status: "unsatisfied", reason: null, observed: shown };
  const unknown = parts.find((p) => p.status === "unknown");
  if (unknown) return { status: "unknown", reason: unknown.reason, observed: shown };
  return { status: "satisfied", reason: null, observed: shown };
}

function evaluateWindow(check: NonNullable<Predicate["window"]>, seen: Observation): Verdict {
  if (seen.windowError !== null) {
    return { status: "unknown", reason: "observation_unavailable", observed: { error: seen.windowError } };
  }
  const exists = check.exists ?? (check.bounds ? null : true);
  const window = seen.window;
  if (window === null) {
    const observed = { exists: false };
    if (exists === false) return { status: "satisfied", reason: null, observed };
    if (exists === true) return { status: "unsatisfied", reason: null, observed };
    return { status: "unknown", reason: "target_missing", observed };
  }
  const observed = { exists: true, bounds: window.bounds, is_on_screen: window.isOnScreen };
  if (exists === false) return { status: "unsatisfied", reason: null, observed };
  if (check.bounds) {
    const tolerance = check.bounds.tolerance_px ?? 0;
    const b = window.bounds;
    const within = (["x", "y", "width", "height"] as const).every((k) =>
      Math.abs(b[k] - check.bounds![k]) <= tolerance
    );
    if (!within) return { status: "unsatisfied", reason: null, observed };
  }
  return { status: "satisfied", reason: null, observed };
}

async function evaluateElement(
  ctx: ToolContext,
  check: NonNullable<Predicate["element"]>,
  seen: Observation,
): Promise<Verdict> {
  const propertyChecks = check.enabled != null || check.selected != null || check.value_equals != null;
  const mustExist = check.exists === true || !propertyChecks;
  if (seen.windowError !== null) {
    return { status: "unknown", reason: "observation_unavailable", observed: { error: seen.windowError } };
  }
  if (seen.window === null) {
    const observed = { window_exists: false, matches: 0 };
    return mustExist
      ? { status: "unsatisfied", reason: null, observed }
      : { status: "unknown", reason: "target_missing", observed };
  }
  if (seen.tree === null || seen.treeError !== null) {
    return {
      status: "unknown",
      reason: "observation_unavailable",
      observed: { error: seen.treeError ?? "no accessibility tree was read" },
    };
  }
  const all = seen.tree.nodes.filter((node) => node.showing && selects(check.selector, node));
  const nth = check.selector.nth;
  const matches = nth === undefined ? all : all.slice(nth, nth + 1);
  if (matches.length === 0 && nth !== undefined && all.length > 0) {
    // Fewer matches than nth asks for: the element this predicate means is not there.
    const observed = { matches: all.length, nth };
    return mustExist
      ? { status: "unsatisfied", reason: null, observed }
      : { status: "unknown", reason: "target_missing", observed };
  }
  if (matches.length === 0) {
    const observed = { matches: 0, tree_complete: !seen.tree.truncated };
    // A truncated tree cannot prove absence.
    if (seen.tree.truncated) return { status: "unknown", reason: "untrusted_source", observed };
    return mustExist
      ? { status: "unsatisfied", reason: null, observed }
      : { status: "unknown", reason: "target_missing", observed };
  }
  if (matches.length > 1) {
    return {
      status: "unknown",
      reason: "multi_match",
      observed: {
        matches: matches.length,
        // Enough to tell identical ones apart and to pick one: its nth, where it is, its state.
        candidates: matches.slice(0, MAX_CANDIDATES).map((n, i) => ({
          nth: i,
          role: n.platformRole,
          label: label(n),
          ...(n.frame ? { frame: { x: n.frame.x, y: n.frame.y, w: n.frame.width, h: n.frame.height } } : {}),
          ...(n.selected !== null ? { selected: n.selected } : {}),
          ...(n.value ? { value: n.value } : {}),
        })),
      },
    };
  }
  const node = matches[0];
  const observed: Record<string, unknown> = { matches: 1, role: node.platformRole, label: label(node) };
  let failed = false;
  let unsupported = false;
  if (check.enabled != null) {
    observed.enabled = node.enabled;
    failed ||= node.enabled !== check.enabled;
  }
  if (check.selected != null) {
    observed.selected = node.selected;
    if (node.selected === null) unsupported = true;
    else failed ||= node.selected !== check.selected;
  }
  if (check.value_equals != null) {
    const value = await valueOf(ctx, node);
    observed.value = value;
    if (value === undefined) unsupported = true;
    else failed ||= value !== check.value_equals;
  }
  if (failed) return { status: "unsatisfied", reason: null, observed };
  if (unsupported) return { status: "unknown", reason: "unsupported_predicate", observed };
  return { status: "satisfied", reason: null, observed };
}

/**
 * True when a node matches a selector. The role matches the platform's role name or the
 * neutral one, case-insensitively, `_`/`-` read as spaces ("push button" or "button").
 */
export function selects(selector: { role?: string; label_contains?: string }, node: AxNode): boolean {
  if (selector.role !== undefined) {
    const wanted = normalizeRole(selector.role);
    if (wanted !== normalizeRole(node.platformRole) && wanted !== normalizeRole(node.role)) return false;
  }
  if (selector.label_contains !== undefined && !label(node).includes(selector.label_contains)) return false;
  return true;
}

function normalizeRole(role: string): string {
  return role.trim().toLowerCase().replace(/[_-]+/g, " ");
}

/** The label get_window_state shows for a node. */
function label(node: AxNode): string {
  return node.name || node.value || node.description || "";
}

/**
 * The element's value: its full text read live when it has a text interface (labels,
 * entries: an empty field is ""), else its numeric value; undefined when it has neither.
 */
async function valueOf(ctx: ToolContext, node: AxNode): Promise<string | null | undefined> {
  if (node.interfaces.includes("text") || node.interfaces.includes("editable_text")) {
    try {
      return await ctx.backend.accessibility.text(node.ref);
    } catch (error) {
      if (error instanceof DriverError && error.code === "aborted") throw error;
      return node.value ?? null;
    }
  }
  if (node.interfaces.includes("value")) return node.value;
  return undefined;
}

/** JSON of an observation, at most 2000 characters (long arrays and strings are cut). */
export function observedJson(observed: unknown): string | null {
  if (observed === undefined || observed === null) return null;
  let json = JSON.stringify(observed);
  if (json.length <= MAX_OBSERVED_CHARS) return json;
  json = JSON.stringify(
    observed,
    (_key, value) => typeof value === "string" && value.length > 200 ? `${value.slice(0, 200)}…` : value,
  );
  if (json.length <= MAX_OBSERVED_CHARS) return json;
  return `${json.slice(0, MAX_OBSERVED_CHARS - 1)}…`;
}
