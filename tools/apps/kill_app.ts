import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { pidParam, sessionParam } from "../_shared/params.ts";

/**
 * Force-terminates a process. In standard permission mode only processes this
 * runtime launched may be killed, and a reused pid is detected by start time.
 */
export default defineTool({
  name: "kill_app",
  title: "Kill app",
  description: "Force-terminate a process by pid (SIGKILL). In the standard permission mode only " +
    "processes this driver launched with launch_app can be killed.",
  group: "apps",
  input: z.strictObject({ pid: pidParam, session: sessionParam }),
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  risk: "r3",
  capabilities: ["desktop.apps.terminate"],
  async run(ctx, args) {
    if (args.pid === Deno.pid || args.pid <= 1) {
      throw new DriverError("permission_denied", `Permission denied: pid ${args.pid} cannot be terminated`, {
        pid: args.pid,
        hint: "the driver never terminates itself or init",
      });
    }
    if (!(await ctx.backend.apps.isAlive(args.pid))) {
      throw new DriverError("process_not_found", `No running process with pid ${args.pid}`, {
        pid: args.pid,
        hint: "call list_apps or list_windows for current pids",
      });
    }
    const launched = ctx.state.launched.get(args.pid);
    if (ctx.state.permissionMode === "standard") {
      if (!launched) {
        throw new DriverError(
          "foreign_process_termination_denied",
          `Permission denied: pid ${args.pid} was not launched by this driver`,
          { pid: args.pid, hint: "standard mode only kills processes started with launch_app" },
        );
      }
      const startTime = await ctx.backend.apps.startTime(args.pid);
      if (launched.startTime !== null && startTime !== launched.startTime) {
        ctx.state.launched.delete(args.pid);
        throw new DriverError(
          "foreign_process_termination_denied",
          `Permission denied: pid ${args.pid} now belongs to a different process than the one launched`,
          { pid: args.pid, hint: "the launched process exited and its pid was reused" },
        );
      }
    }
    await ctx.backend.apps.kill(args.pid);
    ctx.state.launched.delete(args.pid);
    return { content: [{ type: "text", text: `✅ Sent SIGKILL to pid ${args.pid}.` }] };
  },
});
