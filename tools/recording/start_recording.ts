import { z } from "zod";
import { defineTool } from "../../src/core/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { RecordingStateSchema, stateResult } from "./_state.ts";

/** Starts recording every action into numbered turn folders. */
export default defineTool({
  name: "start_recording",
  title: "Start recording",
  description: "Record every following non-read-only tool call (from any session) into output_dir: one " +
    "turn-NNNNN folder per call with action.json (tool, arguments, result), before/after screenshots of the " +
    "target window (the display when none is named), before/after accessibility trees, click.png for clicks " +
    "and evidence.json; plus session.json and cursor.jsonl (the pointer at 30 Hz). record_video:true also " +
    "records the display to recording.mp4 with ffmpeg (missing ffmpeg: turns are still recorded and " +
    "last_error says why; see install_ffmpeg). Replaces a recording in progress; stops when this session " +
    "ends or on stop_recording. Each turn folder appears only once complete. Replay with replay_trajectory.",
  group: "system",
  input: z.strictObject({
    output_dir: z.string().min(1).describe("Folder to record into: absolute or ~/...; created if missing"),
    record_video: z.boolean().default(false).describe("Also record the display to recording.mp4 (ffmpeg)"),
    session: sessionParam,
  }),
  output: RecordingStateSchema,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["recording.start", "recording.video"],
  async run(ctx, args) {
    const state = await ctx.state.recorder.start(ctx.backend, {
      outputDir: args.output_dir,
      recordVideo: args.record_video,
      owner: { sessionId: ctx.session.id, session: ctx.session.label, transport: ctx.transport },
    });
    return stateResult(state);
  },
});
