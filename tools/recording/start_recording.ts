import { z } from "../../src/lib/schema/mod.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";
import { RecordingStateSchema, stateResult } from "./_state.ts";
import { recorderOf } from "../../src/features/recording/slot.ts";

/** Starts recording every action into numbered turn folders. */
export default defineTool({
  name: "start_recording",
  title: "Start recording",
  description:
    "Record every following non-read-only call into output_dir: turn-NNNNN folders (action.json, before/after screenshots and trees, evidence.json), session.json, cursor.jsonl; record_video:true adds recording.mp4 (ffmpeg). Ends at stop_recording or session end.",
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
    const state = await recorderOf(ctx.state).start(ctx.backend, {
      outputDir: args.output_dir,
      recordVideo: args.record_video,
      owner: { sessionId: ctx.session.id, session: ctx.session.label, transport: ctx.transport },
    });
    return stateResult(state);
  },
});
