import { z } from "../../src/lib/schema/mod.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { RecordingStateSchema, stateResult } from "./_state.ts";
import { recorderOf } from "../../src/features/recording/slot.ts";

/** Stops the recording in progress, if any. */
export default defineTool({
  name: "stop_recording",
  title: "Stop recording",
  description:
    "Stop the recording in progress (nothing to stop is not an error): waits for the last turns, finishes recording.mp4, rewrites session.json. Returns the recording state.",
  group: "system",
  input: z.strictObject({}),
  output: RecordingStateSchema,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r3",
  capabilities: ["recording.stop"],
  async run(ctx) {
    return stateResult(await recorderOf(ctx.state).stop());
  },
});
