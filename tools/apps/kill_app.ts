import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import { pidParam, sessionParam } from "../_shared/params.ts";

/** Default and longest wait for an app to quit after it was asked to. */
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

/**
 * Ends a process: politely first (its windows asked to close, as their close buttons do,
 * or SIGTERM when it has none), by force (SIGKILL) when it has not quit within the timeout
 * or when asked. A forced end can leave state behind (LibreOffice's document recovery).
 * In standard permission mode only processes this runtime launched may be ended, and a
 * reused pid is detected by start time.
 */
export default defineTool({
  name: "kill_app",
  title: "Kill app",
  description: "End a process by pid: its windows asked to close (else SIGTERM), SIGKILL after timeout_ms " +
    "(5000) or at once with force. Standard mode: only what launch_app began.",
  group: "apps",
  input: z.strictObject({
    pid: pidParam,
    force: z.boolean().default(false),
    timeout_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS),
    session: sessionParam,
  }),
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
    const polite = args.force ? null : await askToQuit(ctx, args.pid, args.timeout_ms);
    ctx.state.launched.delete(args.pid);
    if (polite?.quit) {
      return ok(
        { pid: args.pid, ended: "quit", forced: false },
        `✅ pid ${args.pid} quit after ${polite.asked} (in ${polite.ms} ms).`,
      );
    }
    await ctx.backend.apps.kill(args.pid);
    const why = polite
      ? ` It did not quit within ${args.timeout_ms} ms after ${polite.asked}${
        polite.shown.length ? ` (it showed ${polite.shown.map((t) => JSON.stringify(t)).join(", ")})` : ""
      }.`
      : "";
    return ok(
      { pid: args.pid, ended: "killed", forced: true },
      `✅ Sent SIGKILL to pid ${args.pid}.${why}`,
    );
  },
});

/**
 * Asks `pid` to quit: its dialogs are asked to close, then (once they are gone) its other
 * windows, or SIGTERM when it has no window the platform can close; then waits up to
 * `timeoutMs` for it to exit. Null when the platform can ask neither way. A modal dialog takes its owner's close request for itself,
 * hence dialogs first.
 */
async function askToQuit(
  ctx: ToolContext,
  pid: number,
  timeoutMs: number,
): Promise<{ quit: boolean; asked: string; ms: number; shown: string[] } | null> {
  const started = performance.now();
  const deadline = started + timeoutMs;
  const windowsOf = async () => (await ctx.backend.windows.list()).filter((w) => w.pid === pid);
  const windows = await windowsOf();
  const before = new Set(windows.map((w) => w.windowId));
  const close = ctx.backend.windows.close?.bind(ctx.backend.windows);
  let closed = 0;
  if (close) {
    const dialogs = windows.filter((w) => w.transientFor);
    for (const w of dialogs) if (await close(w.windowId).catch(() => false)) closed++;
    const gone = new Set(dialogs.map((w) => w.windowId));
    while (
      gone.size && performance.now() < deadline &&
      (await windowsOf()).some((w) => gone.has(w.windowId))
    ) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    for (const w of windows) {
      if (!w.transientFor && await close(w.windowId).catch(() => false)) closed++;
    }
  }
  let asked = `its ${closed} window${closed === 1 ? " was" : "s were"} asked to close`;
  if (closed === 0) {
    if (!ctx.backend.apps.terminate) return null;
    await ctx.backend.apps.terminate(pid);
    asked = "SIGTERM";
  }
  while (await ctx.backend.apps.isAlive(pid)) {
    if (performance.now() >= deadline || ctx.signal?.aborted) {
      const shown = (await windowsOf()).filter((w) => !before.has(w.windowId)).map((w) => w.title);
      return { quit: false, asked, ms: Math.round(performance.now() - started), shown };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { quit: true, asked, ms: Math.round(performance.now() - started), shown: [] };
}
