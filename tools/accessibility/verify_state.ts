import { z } from "../../src/lib/schema/mod.ts";
import { asDriverError, DriverError } from "../../src/ports/errors.ts";
import { type ContentPart, imagePart } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { pidParam, sessionParam, windowIdParam } from "../_shared/params.ts";
import { encodeShot } from "../_shared/screenshot.ts";
import {
  evaluate,
  type Observation,
  observedJson,
  type Predicate,
  predicateProblem,
  PredicateSchema,
  type UnknownReason,
  type Verdict,
} from "./_predicates.ts";

/** Time between samples (the reference's poll interval). */
const POLL_MS = 100;
const TREE_LIMITS = { maxNodes: 5000, maxDepth: Number.MAX_SAFE_INTEGER };

const UNKNOWN_REASONS = [
  "invalid_predicate",
  "unsupported_predicate",
  "untrusted_source",
  "multi_match",
  "target_missing",
  "observation_unavailable",
  "stability_unproven",
] as const;

const Status = z.enum(["satisfied", "unsatisfied", "unknown"]);

/** Bounded, deterministic postcondition check on one exact window. */
export default defineTool({
  name: "verify_state",
  title: "Verify state",
  description:
    "Check 1 to 8 ANDed predicates on one window (exists, bounds, or one showing element by role/label_contains that exists, is enabled, selected or has a value), sampling every 100 ms until all hold stable_samples times or timeout_ms passes. Each: satisfied, unsatisfied or unknown, with a reason.",
  group: "accessibility",
  input: z.strictObject({
    pid: pidParam,
    window_id: windowIdParam,
    expect: z.array(PredicateSchema).min(1).max(8).describe("Predicates, all of which must hold (1 to 8)"),
    include_screenshot: z.boolean().nullable().optional().describe(
      "Screenshot after the last sample",
    ),
    session: sessionParam,
    stable_samples: z.number().int().min(1).max(5).optional().describe(
      "Consecutive satisfied samples (default 2; 1 when timeout_ms is 0)",
    ),
    timeout_ms: z.number().int().min(0).max(10_000).default(5000).describe(
      "Sampling time; 0 takes one sample",
    ),
  }).superRefine((args, issues) => {
    if (args.timeout_ms === 0 && args.stable_samples !== undefined && args.stable_samples !== 1) {
      issues.addIssue({
        code: "custom",
        path: ["stable_samples"],
        message: "must be 1 when timeout_ms is 0 (a single sample)",
      });
    }
  }),
  output: z.object({
    status: Status,
    stable: z.boolean(),
    elapsed_ms: z.number().int(),
    samples: z.number().int(),
    predicates: z.array(z.object({
      index: z.number().int(),
      status: Status,
      unknown_reason: z.enum(UNKNOWN_REASONS).nullable(),
      observed_json: z.string().max(2000).nullable(),
    })),
    window_id: z.number(),
    pid: z.number(),
    screenshot_width: z.number().int().optional(),
    screenshot_height: z.number().int().optional(),
    screenshot_mime_type: z.literal("image/png").optional(),
    screenshot_error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
  hints: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  risk: "r2",
  capabilities: ["verification.state", "accessibility.tree.read"],
  async run(ctx, args) {
    await requireWindowOfPid(ctx, args.pid, args.window_id);
    const stableSamples = args.stable_samples ?? (args.timeout_ms === 0 ? 1 : 2);
    const run = await sample(ctx, args.pid, args.window_id, args.expect, stableSamples, args.timeout_ms);

    const predicates = run.verdicts.map((verdict, index) => ({
      index,
      status: verdict.status,
      unknown_reason: verdict.reason,
      observed_json: observedJson(verdict.observed),
    }));
    const structured: Record<string, unknown> = {
      status: run.status,
      stable: run.stable,
      elapsed_ms: run.elapsedMs,
      samples: run.samples,
      predicates,
      window_id: args.window_id,
      pid: args.pid,
    };
    const lines = predicates.map((p) =>
      `[${p.index}] ${p.status}${p.unknown_reason ? ` (${p.unknown_reason})` : ""} ${
        describePredicate(args.expect[p.index])
      }: ${p.observed_json ?? "nothing observed"}`
    );
    const icon = run.status === "satisfied" ? "✅" : run.status === "unsatisfied" ? "❌" : "❔";
    const header =
      `${icon} verify_state: ${run.status}${run.stable ? ` (stable over ${stableSamples})` : ""}, ` +
      `${run.samples} sample${run.samples === 1 ? "" : "s"} in ${run.elapsedMs} ms`;
    const content: ContentPart[] = [{ type: "text", text: [header, ...lines].join("\n") }];
    if (args.include_screenshot) {
      try {
        const captured = await ctx.backend.screen.captureWindow(args.window_id);
        const shot = await encodeShot(ctx, captured.image, {
          kind: "window",
          windowId: args.window_id,
          displayId: "primary",
          bounds: captured.bounds,
          windowOrigin: { x: captured.bounds.x, y: captured.bounds.y },
        }, ctx.state.config.values.max_image_dimension);
        Object.assign(structured, {
          screenshot_width: shot.width,
          screenshot_height: shot.height,
          screenshot_mime_type: "image/png",
        });
        content.push(imagePart(shot.png, "image/png"));
      } catch (error) {
        const failure = asDriverError(error);
        if (failure.code === "aborted") throw failure;
        structured.screenshot_error = { code: failure.code, message: failure.message };
      }
    }
    return { content, structuredContent: structured };
  },
});

/** What the sampling loop ended with. */
interface SampleRun {
  status: "satisfied" | "unsatisfied" | "unknown";
  stable: boolean;
  elapsedMs: number;
  samples: number;
  verdicts: Verdict[];
}

/**
 * Samples until every predicate is satisfied for `stableSamples` consecutive samples, or
 * the timeout. A run that ends satisfied-but-not-yet-stable reports the satisfied
 * predicates as unknown/stability_unproven.
 */
async function sample(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  expect: readonly Predicate[],
  stableSamples: number,
  timeoutMs: number,
): Promise<SampleRun> {
  const started = performance.now();
  const needsTree = expect.some((p) => p.element && predicateProblem(p) === null);
  const statically = expect.some((p) => predicateProblem(p) !== null);
  let samples = 0;
  let streak = 0;
  let previous = "";
  let verdicts: Verdict[] = [];
  while (true) {
    const seen = await observe(ctx, pid, windowId, needsTree);
    verdicts = [];
    for (const predicate of expect) verdicts.push(await evaluate(ctx, predicate, seen));
    samples++;
    const key = verdicts.map((v) => `${v.status}:${v.reason}`).join(",");
    streak = key === previous ? streak + 1 : 1;
    previous = key;
    const status = overall(verdicts);
    const elapsed = performance.now() - started;
    if (status === "satisfied" && streak >= stableSamples) {
      return { status, stable: true, elapsedMs: Math.round(elapsed), samples, verdicts };
    }
    // An invalid predicate can never hold: one sample shows the others, then stop.
    if (statically || elapsed + POLL_MS > timeoutMs) break;
    await sleep(started + samples * POLL_MS - performance.now(), ctx.signal);
  }
  const elapsedMs = Math.round(performance.now() - started);
  let status = overall(verdicts);
  const stable = streak >= stableSamples;
  if (status === "satisfied") {
    // Held on the last samples, but not for long enough to count.
    status = "unknown";
    verdicts = verdicts.map((v) => ({
      ...v,
      status: "unknown",
      reason: "stability_unproven" as UnknownReason,
    }));
  }
  return { status, stable: status !== "unknown" && stable, elapsedMs, samples, verdicts };
}

function overall(verdicts: readonly Verdict[]): SampleRun["status"] {
  if (verdicts.some((v) => v.status === "unsatisfied")) return "unsatisfied";
  if (verdicts.some((v) => v.status === "unknown")) return "unknown";
  return "satisfied";
}

/** One sample: the window (always) and its accessibility tree (when an element predicate needs it). */
async function observe(
  ctx: ToolContext,
  pid: number,
  windowId: number,
  needsTree: boolean,
): Promise<Observation> {
  const seen: Observation = { window: null, windowError: null, tree: null, treeError: null };
  try {
    const window = await ctx.backend.windows.get(windowId);
    seen.window = window && window.pid === pid ? window : null;
  } catch (error) {
    const failure = asDriverError(error);
    if (failure.code === "aborted") throw failure;
    seen.windowError = failure.message;
    return seen;
  }
  if (!needsTree || seen.window === null) return seen;
  try {
    const tree = await ctx.backend.accessibility.tree(pid, windowId, TREE_LIMITS, ctx.signal);
    seen.tree = tree;
    if (tree.error !== null) seen.treeError = `degraded accessibility tree: ${tree.error}`;
    else if (tree.nodes.length <= 1) seen.treeError = "degraded accessibility tree: no elements";
  } catch (error) {
    const failure = asDriverError(error);
    if (failure.code === "aborted" || ctx.signal.aborted) throw failure;
    seen.treeError = failure.message;
  }
  return seen;
}

/**
 * Refuses a window that exists but belongs to another process. A window that does not
 * exist is not refused: `window.exists: false` may be exactly what the caller expects.
 */
async function requireWindowOfPid(ctx: ToolContext, pid: number, windowId: number): Promise<void> {
  const window = await ctx.backend.windows.get(windowId);
  if (window && window.pid !== pid) {
    throw new DriverError(
      "window_target_not_found",
      `Window ${windowId} belongs to ${window.pid === null ? "no verifiable pid" : `pid ${window.pid}`}, ` +
        `not pid ${pid}`,
      { pid, window_id: windowId, hint: "pass the pid list_windows reports for this window" },
    );
  }
}

function describePredicate(predicate: Predicate): string {
  return JSON.stringify(predicate).slice(0, 160);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
