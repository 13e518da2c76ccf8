import { z } from "../../src/lib/schema/mod.ts";
import { stopAllInput } from "../../src/kernel/input_stop.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { sessionParam } from "../_shared/params.ts";

/**
 * A harness's stop switch (the live view's Stop button and `cua-driver stop-input` do the same).
 * There is deliberately no resume tool: only a person resumes, from the live view or the CLI.
 */
export default defineTool({
  name: "stop_input",
  title: "Stop input",
  description:
    "Stop the agent's input now: cancel the running action, release every held key and button, and refuse every later acting call (input, apps, windows, menus, clipboard writes, browser actions, replay) with input_stopped. Observation keeps working. Only a person resumes it (the live view's Resume button or `cua-driver resume-input`).",
  group: "system",
  input: z.strictObject({ session: sessionParam }),
  output: z.object({
    stopped: z.literal(true),
    changed: z.boolean(),
    aborted: z.number().int().min(0),
    stopped_by: z.string(),
  }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  needsDesktop: false,
  sessionRequiring: false,
  // A harness's control, not an agent's action: callable by name, not in tools/list.
  listed: false,
  capabilities: ["driver.input.stop"],
  async run(ctx) {
    const outcome = await stopAllInput(ctx.state, ctx.input, ctx.transport);
    return ok(
      {
        stopped: true as const,
        changed: outcome.changed,
        aborted: outcome.aborted,
        stopped_by: outcome.state.by ?? ctx.transport,
      },
      `⏹ input ${
        outcome.changed ? "stopped" : "was already stopped"
      }: ${outcome.aborted} running action(s) ` +
        "cancelled, held keys and buttons released; a person resumes it from the live view or with " +
        "`cua-driver resume-input`",
    );
  },
});
