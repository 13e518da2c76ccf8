/**
 * What the recorder records and what it keeps out of a turn (contract.md §7): every
 * call of a tool that is not read-only, except the recording tools themselves; batch
 * tools are recorded as the calls they dispatch, so every turn replays on its own.
 *
 * @module
 */
import type { AnyTool } from "../../kernel/tool.ts";

/** Tools never recorded: the recorder's own controls (contract.md §7). */
export const RECORDING_TOOLS: ReadonlySet<string> = new Set([
  "start_recording",
  "stop_recording",
  "get_recording_state",
  "replay_trajectory",
]);

/**
 * Tools that run other tools through `ctx.dispatch`. Each call they dispatch is a turn of
 * its own; the batch itself is not (a recorded batch could not replay: batches do not nest).
 */
export const CONTAINER_TOOLS: ReadonlySet<string> = new Set(["run_actions"]);

/** Tools whose dispatched click is drawn into click.png. */
export const CLICK_TOOLS: ReadonlySet<string> = new Set(["click", "double_click", "right_click"]);

/** The value a redacted argument is replaced with. */
export const REDACTED = "<redacted>";

/**
 * Arguments kept out of action.json: clipboard contents, file lists and paths handed to
 * apps, prompt answers and download roots (contract.md §7).
 */
const REDACTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  clipboard_write: ["text", "image_path", "file_path"],
  browser_set_input_files: ["files"],
  browser_dialog: ["prompt_text"],
  browser_download: ["destination_root"],
};

/** True when a call of `tool` becomes a turn. */
export function isRecorded(tool: Pick<AnyTool, "name" | "hints">): boolean {
  return !tool.hints.readOnly && !RECORDING_TOOLS.has(tool.name) && !CONTAINER_TOOLS.has(tool.name);
}

/**
 * A private turn keeps only action.json and evidence.json: attaching to a user's existing
 * browser profile must leave no pictures or trees of it.
 */
export function isPrivateTurn(tool: string, args: Readonly<Record<string, unknown>>): boolean {
  const strategy = args.strategy as { kind?: unknown } | undefined;
  return tool === "browser_prepare" && strategy?.kind === "existing_profile";
}

/**
 * The arguments as action.json stores them: reserved `_` keys stripped and private values
 * replaced with {@linkcode REDACTED}. Returns the names of the redacted keys too.
 */
export function redactArguments(
  tool: string,
  args: Readonly<Record<string, unknown>>,
): { arguments: Record<string, unknown>; redacted: string[] } {
  const keys = REDACTED_KEYS[tool] ?? [];
  const redacted: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key.startsWith("_")) continue;
    if (keys.includes(key) && value !== undefined && value !== null) {
      out[key] = REDACTED;
      redacted.push(key);
    } else {
      out[key] = value;
    }
  }
  return { arguments: out, redacted };
}
