/**
 * The recording state object every recording tool returns (contract.md §1.9).
 *
 * @module
 */
import { z } from "../../src/lib/schema/mod.ts";
import type { RecordingState } from "../../src/features/recording/recorder.ts";
import { ok } from "../../src/kernel/result.ts";
import type { ToolResult } from "../../src/kernel/result.ts";

/** Schema of the recording state object. */
export const RecordingStateSchema = z.object({
  recording: z.boolean().describe("A recording is in progress"),
  enabled: z.boolean().describe("Same as recording"),
  output_dir: z.string().nullable().describe("The folder turns are written to (the last one when stopped)"),
  next_turn: z.number().int().describe("Number of the next turn folder (turn-NNNNN)"),
  last_error: z.string().nullable().describe(
    "The last recording problem (video, a turn not written), or null",
  ),
  video_active: z.boolean().describe("ffmpeg is recording recording.mp4"),
  last_video_path: z.string().nullable().describe("The latest recording.mp4, or null"),
  owner: z.object({ session: z.string().nullable(), transport: z.string() }).nullable().describe(
    "The session that started the recording (it stops when that session ends)",
  ),
});

/** The tool result for a state: structured plus the reference's one-line text. */
export function stateResult(state: RecordingState): ToolResult {
  const text = state.recording
    ? `✅ recording: enabled output_dir=${state.output_dir} next_turn=${state.next_turn}` +
      (state.video_active ? " video=on" : "") + (state.last_error ? ` last_error=${state.last_error}` : "")
    : "✅ recording: disabled" + (state.last_error ? ` last_error=${state.last_error}` : "");
  return ok({ ...state }, text);
}
