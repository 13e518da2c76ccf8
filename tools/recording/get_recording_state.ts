import { z } from "../../src/lib/schema/mod.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { RecordingStateSchema, stateResult } from "./_state.ts";
import { recorderOf } from "../../src/features/recording/slot.ts";

/** Whether a recording is in progress, where, and the next turn number. */
export default defineTool({
  name: "get_recording_state",
  title: "Get recording state",
  description: "Report whether a recording is in progress: output_dir, the next turn number, whether " +
    "video is being recorded, the owner session and the last recording error.",
  group: "system",
  input: z.strictObject({}),
  output: RecordingStateSchema,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  needsDesktop: false,
  capabilities: ["recording.read"],
  sessionRequiring: false,
  run(ctx) {
    return Promise.resolve(stateResult(recorderOf(ctx.state).state()));
  },
});
