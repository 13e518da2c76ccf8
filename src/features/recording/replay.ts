/**
 * Replaying a recording: each `turn-*` folder's call, in order, through the registry's
 * normal dispatch (same validation, session, authorization and refusals as if the agent
 * had sent it), reporting per turn what happened (contract.md §7).
 *
 * Element tokens die with their snapshot, so a turn recorded with a token is re-aimed:
 * a fresh get_window_state of the recorded window, and the element with the recorded
 * role and label (the same occurrence of it, when several share them). Pixel turns on a
 * window need a screenshot of it in the replaying session, so one is taken when missing.
 * Everything else is sent exactly as recorded.
 *
 * @module
 */
import { join } from "node:path";
import { DriverError } from "../../ports/errors.ts";
import { readCallerFile } from "../../kernel/safe_files.ts";
import type { ToolResult } from "../../kernel/result.ts";
import type { ToolDispatch } from "../../kernel/tool.ts";
import { RECORDING_TOOLS } from "./policy.ts";
import { readSessionFile } from "./session_file.ts";
import { isFailure, summaryOf } from "./turn.ts";
import { isTurnFolderName } from "./turn_writer.ts";

/** One turn's outcome. */
export type TurnReport =
  | { turn: string; tool: string; ok: boolean; result_summary: string; error_code?: string }
  | { turn: string; ok: false; parse_error: string };

/** replay_trajectory's result. */
export interface ReplayReport {
  directory: string;
  attempted: number;
  succeeded: number;
  failed: number;
  stop_on_error: boolean;
  turns: TurnReport[];
  first_failure?: { turn: string; tool: string; error: string };
}

/** What a replay needs from its caller. */
export interface ReplayOptions {
  dir: string;
  delayMs: number;
  stopOnError: boolean;
  dispatch: ToolDispatch;
  signal: AbortSignal;
  /** Hears which turn is replayed (MCP progress). */
  progress?: (report: { progress: number; total: number; message: string }) => void;
  /** Image size of the replaying session's latest screenshot of a window, or null. */
  windowShotSize(windowId: number): { width: number; height: number } | null;
}

/** A parsed action.json. */
interface RecordedAction {
  tool: string;
  arguments: Record<string, unknown>;
  redacted: string[];
  replay: {
    target?: { kind?: string; pid?: number; window_id?: number };
    element?: { role: string; label: string; ordinal: number };
    pixel_space?: { width: number; height: number; from_zoom?: boolean };
  };
}

/**
 * Lists a recording's turn folders (`turn-*`, sorted), checking the format first.
 *
 * @throws {DriverError} `recording_not_found` (missing or not a folder),
 *   `recording_format_unsupported`, `recording_invalid` (no turn folders, bad session.json).
 */
export async function listTurns(dir: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch {
    throw new DriverError("recording_not_found", `Trajectory directory does not exist: ${dir}`, {
      path: dir,
      hint: "pass the output_dir a start_recording wrote into",
    });
  }
  if (!info.isDirectory) {
    throw new DriverError("recording_not_found", `Trajectory path is not a directory: ${dir}`, {
      path: dir,
      hint: "pass the recording's folder, not a file in it",
    });
  }
  await readSessionFile(dir);
  const turns: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory && entry.name.startsWith("turn-")) turns.push(entry.name);
  }
  if (turns.length === 0) {
    throw new DriverError("recording_invalid", `No turn-NNNNN folders found under ${dir}`, {
      path: dir,
      hint: "record a session with start_recording first; only complete turn folders replay",
    });
  }
  return turns.sort();
}

/** Replays every turn of a recording. */
export async function replayTrajectory(options: ReplayOptions): Promise<ReplayReport> {
  const turns = await listTurns(options.dir);
  const report: ReplayReport = {
    directory: options.dir,
    attempted: 0,
    succeeded: 0,
    failed: 0,
    stop_on_error: options.stopOnError,
    turns: [],
  };
  for (const [i, turn] of turns.entries()) {
    if (options.signal.aborted) break;
    if (i > 0 && options.delayMs > 0) await sleep(options.delayMs, options.signal);
    report.attempted++;
    options.progress?.({ progress: i + 1, total: turns.length, message: `replaying ${turn}` });
    const outcome = await replayTurn(options, turn);
    report.turns.push(outcome);
    if (outcome.ok) {
      report.succeeded++;
      continue;
    }
    report.failed++;
    const tool = "tool" in outcome ? outcome.tool : "(unreadable)";
    const error = "parse_error" in outcome ? outcome.parse_error : outcome.result_summary;
    report.first_failure ??= { turn, tool, error };
    if (options.stopOnError) break;
  }
  return report;
}

/** A turn's action.json holds one call's arguments and a result summary; far below this. */
const ACTION_FILE_LIMIT = 16 * 1024 * 1024;

async function replayTurn(options: ReplayOptions, turn: string): Promise<TurnReport> {
  if (!isTurnFolderName(turn)) {
    return { turn, ok: false, parse_error: `"${turn}" is not a turn-NNNNN folder name` };
  }
  let action: RecordedAction;
  try {
    const { bytes } = await readCallerFile(join(options.dir, turn, "action.json"), {
      field: "dir",
      maxBytes: ACTION_FILE_LIMIT,
    });
    action = parseAction(new TextDecoder().decode(bytes));
  } catch (error) {
    return { turn, ok: false, parse_error: (error as Error).message };
  }
  const { tool } = action;
  if (RECORDING_TOOLS.has(tool)) {
    return refused(turn, tool, `${tool} is a recording control and is never replayed`);
  }
  if (action.redacted.length) {
    return refused(turn, tool, `not replayed: ${action.redacted.join(", ")} was redacted when recorded`);
  }
  let args = action.arguments;
  try {
    args = await reaim(options, action);
  } catch (error) {
    const failure = error instanceof DriverError ? error : null;
    return {
      ...refused(turn, tool, (error as Error).message),
      ...(failure ? { error_code: failure.code } : {}),
    };
  }
  const result = await options.dispatch.call(tool, args);
  const report: TurnReport = { turn, tool, ok: !isFailure(result), result_summary: summaryOf(result) };
  const code = codeOf(result);
  if (!report.ok && code) report.error_code = code;
  return report;
}

/** Re-aims element and window-pixel turns for the replaying session. */
async function reaim(options: ReplayOptions, action: RecordedAction): Promise<Record<string, unknown>> {
  const args = { ...action.arguments };
  const target = action.replay.target;
  if (target?.kind !== "window" || typeof target.pid !== "number" || typeof target.window_id !== "number") {
    return args;
  }
  const window = { pid: target.pid, window_id: target.window_id };
  const element = action.replay.element;
  const byToken = typeof args.element_token === "string" ||
    (typeof args.snapshot_id === "string" && typeof args.element_index === "number");
  if (element && byToken) {
    const state = await observe(options.dispatch, window, false);
    const token = findElement(state, element);
    if (!token) {
      throw new DriverError(
        "stale_element_token",
        `The recorded element (${element.role} "${element.label}") is not in window ${window.window_id} now`,
        { hint: "the app is not in the state it was recorded in" },
      );
    }
    delete args.snapshot_id;
    delete args.element_index;
    args.element_token = token;
    return args;
  }
  const space = action.replay.pixel_space;
  if (typeof args.x === "number" && typeof args.y === "number" && space && !space.from_zoom) {
    const size = options.windowShotSize(window.window_id);
    if (!size || size.width !== space.width || size.height !== space.height) {
      await observe(options.dispatch, window, true);
    }
  }
  return args;
}

async function observe(
  dispatch: ToolDispatch,
  window: { pid: number; window_id: number },
  screenshot: boolean,
): Promise<Record<string, unknown>> {
  const result = await dispatch.call("get_window_state", { ...window, include_screenshot: screenshot });
  if (result.isError) {
    throw new DriverError(
      "window_target_not_found",
      `Cannot read the recorded window ${window.window_id} (pid ${window.pid}): ${summaryOf(result)}`,
      { hint: "start the app the recording was made against; window ids and pids are not re-matched" },
    );
  }
  return result.structuredContent ?? {};
}

function findElement(
  state: Record<string, unknown>,
  wanted: { role: string; label: string; ordinal: number },
): string | null {
  const elements = (state.elements ?? []) as { role: string; label: string; element_token: string }[];
  const matches = elements.filter((e) => e.role === wanted.role && e.label === wanted.label);
  return (matches[wanted.ordinal] ?? (matches.length === 1 ? matches[0] : undefined))?.element_token ?? null;
}

/** Parses action.json; throws an Error whose message says what is wrong. */
function parseAction(text: string): RecordedAction {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`action.json is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new Error("action.json is not an object");
  }
  const { tool, arguments: args, redacted, replay } = doc as Record<string, unknown>;
  if (typeof tool !== "string" || tool === "") throw new Error("action.json has no tool name");
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    throw new Error("action.json arguments is not an object");
  }
  return {
    tool,
    arguments: (args ?? {}) as Record<string, unknown>,
    redacted: Array.isArray(redacted) ? redacted.map(String) : [],
    replay: (typeof replay === "object" && replay !== null ? replay : {}) as RecordedAction["replay"],
  };
}

function refused(turn: string, tool: string, why: string): TurnReport {
  return { turn, tool, ok: false, result_summary: why };
}

function codeOf(result: ToolResult): string | null {
  const s = result.structuredContent ?? {};
  const code = s.code ?? (s.refusal as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : null;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
