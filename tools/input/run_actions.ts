import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import type { ContentPart, ToolResult } from "../../src/kernel/result.ts";
import { defineTool, type ToolDispatch } from "../../src/kernel/tool.ts";
import { pidParam, sessionParam, windowIdParam } from "../_shared/params.ts";

/**
 * Tools a batch may run: the action tools of the seed's run_actions list (contract.md
 * §2.1's ActionResult tools plus set_value and invoke_menu). Only those the registry
 * actually has are accepted; the registry validates each call as usual.
 */
export const BATCH_TOOLS: readonly string[] = [
  "click",
  "double_click",
  "right_click",
  "drag",
  "scroll",
  "move_cursor",
  "mouse_button_down",
  "mouse_drag",
  "mouse_button_up",
  "type_text",
  "press_key",
  "hotkey",
  "set_value",
  "set_window_frame",
  "invoke_menu",
];

/** get_window_state fields an observation keeps (its outline is in the text). */
const OBSERVATION_FIELDS = [
  "window_id",
  "pid",
  "title",
  "bounds",
  "snapshot_id",
  "invalidated_snapshot_ids",
  "element_count",
  "truncated",
  "elements",
  "role_actions",
  "degraded",
  "degraded_reason",
  "escalation",
  "screenshot_width",
  "screenshot_height",
  "screenshot_mime_type",
  "screenshot_id",
  "screenshot_scale",
  "screenshot_error",
] as const;

const ActionOutcome = z.object({
  index: z.number().int(),
  tool: z.string(),
  is_error: z.boolean(),
  structured: z.record(z.string(), z.unknown()).nullable(),
});

/** Several action tools in one call, in order, through the normal dispatch path. */
export default defineTool({
  name: "run_actions",
  title: "Run actions",
  description:
    "The default way to act: several action tools in ONE call, in order, each as if called alone, stopping at the first failure (stop_on_error); observe {pid, window_id} adds the window's fresh tree. failed_index and results[] report each.",
  group: "input",
  input: z.strictObject({
    actions: z.array(z.strictObject({
      tool: z.string().min(1).describe("An action tool's name"),
      arguments: z.record(z.string(), z.unknown()).default({}).describe(
        "That tool's arguments, as it takes them alone",
      ),
    })).min(1).max(32).describe("The actions, run in order (1 to 32)"),
    stop_on_error: z.boolean().default(true).describe("Stop at the first failed action (default true)"),
    observe: z.strictObject({
      pid: pidParam,
      window_id: windowIdParam,
      include_screenshot: z.boolean().default(false).describe("Also return the window's screenshot"),
    }).nullable().optional().describe("Read this window once the actions ran (get_window_state)"),
    session: sessionParam,
  }),
  output: z.object({
    completed: z.number().int().describe("Actions that succeeded"),
    failed_index: z.number().int().nullable().describe("Index of the first failed action, or null"),
    attempted: z.number().int().describe("Actions that ran (the rest were skipped after a failure)"),
    results: z.array(ActionOutcome),
    observation: z.object({ is_error: z.boolean() }).catchall(z.unknown()).optional(),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["input.batch"],
  runsOtherTools: true,
  async run(ctx, args) {
    const dispatch = ctx.dispatch;
    if (!dispatch) {
      throw new DriverError("permission_denied", "run_actions cannot run inside another batch", {
        field: "actions",
        hint: "call run_actions directly, not from within a batch",
      });
    }
    checkBatch(args.actions, ctx.session.label, dispatch);
    checkBudget(args.actions);

    const results: z.output<typeof ActionOutcome>[] = [];
    const lines: string[] = [];
    let failedIndex: number | null = null;
    for (const [index, action] of args.actions.entries()) {
      // A cancelled batch (caller gone, session ended) runs nothing more; what ran is in results.
      if (ctx.signal.aborted) break;
      const result = await dispatch.call(action.tool, action.arguments);
      const isError = result.isError === true;
      results.push({
        index,
        tool: action.tool,
        is_error: isError,
        structured: result.structuredContent ?? null,
      });
      lines.push(`[${index}] ${action.tool}: ${textOf(result)}`);
      if (isError) {
        failedIndex ??= index;
        if (args.stop_on_error) break;
      }
    }
    const completed = results.filter((r) => !r.is_error).length;
    const skipped = args.actions.length - results.length;
    const structured: Record<string, unknown> = {
      completed,
      failed_index: failedIndex,
      attempted: results.length,
      results,
    };
    const images: ContentPart[] = [];
    if (args.observe) {
      const observed = await observe(dispatch, args.observe);
      structured.observation = observed.structured;
      lines.push(observed.text);
      images.push(...observed.images);
    }
    const header = failedIndex === null
      ? `✅ run_actions: ${completed}/${args.actions.length} actions succeeded`
      : `⚠️ run_actions: action ${failedIndex} (${args.actions[failedIndex].tool}) failed; ` +
        `${completed} succeeded${skipped ? `, ${skipped} skipped` : ""}`;
    return {
      content: [{ type: "text", text: [header, ...lines].join("\n") }, ...images],
      structuredContent: structured,
    };
  },
});

/**
 * Refuses a batch before anything runs: unknown or non-action tools, nested batches,
 * arguments the tool's own schema rejects, or a different session label.
 *
 * @throws {DriverError} `invalid_arguments` naming `actions.<i>...`; `permission_denied`
 *   for a session label other than the batch's.
 */
/** What one call may spend on paced input: the longest wait a caller should have to sit through. */
export const CALL_INPUT_BUDGET_MS = 60_000;

/** Milliseconds an action's own pacing takes at least (drag durations, typing delays). */
function pacedMs(args: Record<string, unknown>): number {
  const number = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
  let ms = number(args.duration_ms);
  if (typeof args.text === "string") ms += [...args.text].length * number(args.delay_ms);
  if (Array.isArray(args.drags)) {
    ms += Math.max(0, ...args.drags.map((d) => number((d as Record<string, unknown>)?.duration_ms)));
  }
  return ms;
}

/**
 * Refuses a batch whose actions would pace input for longer than a minute in all.
 *
 * @throws {DriverError} `invalid_arguments` naming `actions`.
 */
function checkBudget(actions: readonly { tool: string; arguments: Record<string, unknown> }[]): void {
  const total = actions.reduce((sum, action) => sum + pacedMs(action.arguments), 0);
  if (total > CALL_INPUT_BUDGET_MS) {
    throw invalid(
      "actions",
      `the actions would take at least ${Math.round(total / 1000)} s of paced input; one call stays under ${
        CALL_INPUT_BUDGET_MS / 1000
      } s`,
      "split the batch into several run_actions calls, or shorten durations and delays",
    );
  }
}

function checkBatch(
  actions: readonly { tool: string; arguments: Record<string, unknown> }[],
  label: string | null,
  dispatch: ToolDispatch,
): void {
  actions.forEach((action, i) => {
    const field = `actions.${i}`;
    if (action.tool === "run_actions") {
      throw invalid(`${field}.tool`, "run_actions cannot contain run_actions", "flatten the batch");
    }
    if (!BATCH_TOOLS.includes(action.tool)) {
      throw invalid(
        `${field}.tool`,
        `"${action.tool}" is not an action tool`,
        `use one of ${BATCH_TOOLS.map((t) => `"${t}"`).join(", ")}; observe with get_window_state separately`,
      );
    }
    const session = action.arguments.session;
    if (session !== undefined && session !== label) {
      throw new DriverError(
        "permission_denied",
        `Permission denied: action ${i} names session ${JSON.stringify(session)}, but the batch runs in ` +
          `${label === null ? "the implicit session" : `session ${JSON.stringify(label)}`}`,
        {
          field: `${field}.arguments.session`,
          hint: "pass session on run_actions itself and omit it in actions",
        },
      );
    }
    // The tool's own schema, so a bad action later in the list stops the batch before the first runs.
    try {
      dispatch.validate(action.tool, action.arguments);
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      if (error.code === "unknown_tool") {
        throw invalid(`${field}.tool`, `"${action.tool}" is not available in this build`, "call tools/list");
      }
      const inner = typeof error.data.field === "string" && error.data.field !== "(root)"
        ? error.data.field
        : "";
      throw invalid(
        `${field}.arguments${inner ? `.${inner}` : ""}`,
        error.message.replace(/^Invalid arguments for /, ""),
        `see "cua-driver describe ${action.tool}"`,
      );
    }
  });
}

function invalid(field: string, message: string, hint: string): DriverError {
  return new DriverError("invalid_arguments", `Invalid arguments for "run_actions": ${field}: ${message}`, {
    tool: "run_actions",
    field,
    hint,
  });
}

async function observe(
  dispatch: ToolDispatch,
  target: { pid: number; window_id: number; include_screenshot: boolean },
): Promise<{ structured: Record<string, unknown>; text: string; images: ContentPart[] }> {
  const result = await dispatch.call("get_window_state", {
    pid: target.pid,
    window_id: target.window_id,
    include_screenshot: target.include_screenshot,
  });
  const full = result.structuredContent ?? {};
  if (result.isError) {
    return {
      structured: { is_error: true, error: full },
      text: `observation failed: ${textOf(result)}`,
      images: [],
    };
  }
  const structured: Record<string, unknown> = { is_error: false };
  for (const key of OBSERVATION_FIELDS) if (full[key] !== undefined) structured[key] = full[key];
  const text = result.content.find((part) => part.type === "text");
  return {
    structured,
    text: `observation (snapshot ${full.snapshot_id}): ${text?.type === "text" ? text.text : ""}`,
    images: result.content.filter((part) => part.type === "image"),
  };
}

function textOf(result: ToolResult): string {
  const text = result.content.find((part) => part.type === "text");
  return text?.type === "text" ? text.text : "(no text)";
}
