import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { expandOutputDir } from "../../src/features/recording/recorder.ts";
import { replayTrajectory } from "../../src/features/recording/replay.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";

const TurnReport = z.union([
  z.object({
    turn: z.string(),
    tool: z.string(),
    ok: z.boolean(),
    result_summary: z.string(),
    error_code: z.string().optional(),
  }),
  z.object({ turn: z.string(), ok: z.literal(false), parse_error: z.string() }),
]);

/** Re-runs a recording's turns in order through the normal dispatch. */
export default defineTool({
  name: "replay_trajectory",
  title: "Replay trajectory",
  description:
    "Replay a start_recording folder through the normal dispatch, delay_ms apart, stopping at the first failure unless stop_on_error is false; element turns re-aimed by role and label in the recorded window. Reports each turn.",
  group: "system",
  input: z.strictObject({
    dir: z.string().min(1).describe("The recording folder (absolute or ~/...)"),
    delay_ms: z.number().int().min(0).max(10_000).default(500).describe("Pause between turns (default 500)"),
    stop_on_error: z.boolean().default(true).describe("Stop at the first failed turn (default true)"),
    session: sessionParam,
  }),
  output: z.object({
    directory: z.string(),
    attempted: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    stop_on_error: z.boolean(),
    turns: z.array(TurnReport),
    first_failure: z.object({ turn: z.string(), tool: z.string(), error: z.string() }).optional(),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  risk: "r3",
  capabilities: ["recording.replay"],
  runsOtherTools: true,
  async run(ctx, args) {
    const dispatch = ctx.dispatch;
    if (!dispatch) {
      throw new DriverError("permission_denied", "replay_trajectory cannot run inside another call", {
        hint: "call replay_trajectory directly",
      });
    }
    const dir = expandOutputDir(args.dir, "dir");
    const report = await replayTrajectory({
      dir,
      delayMs: args.delay_ms,
      stopOnError: args.stop_on_error,
      dispatch,
      signal: ctx.signal,
      progress: ctx.progress,
      windowShotSize(windowId) {
        const capture = ctx.state.captures.latestForWindow(ctx.session.id, windowId);
        return capture ? { width: capture.imageWidth, height: capture.imageHeight } : null;
      },
    });
    const failure = report.first_failure;
    const text = `replay ${dir}: attempted=${report.attempted} succeeded=${report.succeeded} ` +
      `failed=${report.failed}` + (failure ? ` first_failure=${failure.turn}:${failure.tool}` : "");
    const lines = report.turns.map((t) =>
      "parse_error" in t
        ? `${t.turn}: ❌ ${t.parse_error}`
        : `${t.turn} ${t.tool}: ${t.ok ? "✅" : "❌"} ${t.result_summary.split("\n")[0]}`
    );
    return ok({ ...report }, [text, ...lines].join("\n"));
  },
});
