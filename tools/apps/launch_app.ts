import { z } from "../../src/lib/schema/mod.ts";
import { DriverError } from "../../src/ports/errors.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool, type ToolContext } from "../../src/kernel/tool.ts";
import type { WindowInfo } from "../../src/ports/windows.ts";
import { sessionParam } from "../_shared/params.ts";
import { WindowRecord, windowRecord } from "../windows/_window_record.ts";

const WINDOW_WAIT_MS = 3000;
/**
 * How long to follow a launcher (LibreOffice's oosplash) until the app behind it maps its
 * window: with a fresh profile the app restarts once under it, so the pid of its first
 * process would never own a window.
 */
const LAUNCHER_WAIT_MS = 60_000;
const WINDOW_POLL_MS = 100;
/** After the window maps, how long to wait for its accessibility tree (a sign the UI is built and painted). */
const READY_WAIT_MS = 1500;

/** Launches an app without bringing anything to the front on purpose. */
export default defineTool({
  name: "launch_app",
  title: "Launch app",
  description:
    "Launch an app by launch_path (arguments in additional_arguments), name or urls (xdg-open), fronting nothing; waits up to 3 s for a window (60 s behind a launcher). Standard: GUI apps only; bounded: the manifest's, argument files within its grants. Unless unrestricted, launch_refused for program runners (shells, env, interpreters, git) and code-loading arguments; always for killers (kill_app) and DevTools flags (browser_prepare).",
  group: "apps",
  input: z.strictObject({
    launch_path: z.string().min(1).max(4096).optional().describe(
      "One program: a path, a name on PATH, a .desktop file, or a launch_path from list_apps",
    ),
    name: z.string().min(1).max(4096).optional().describe("App name or desktop-file id from list_apps"),
    bundle_id: z.string().optional().describe("Ignored on Linux"),
    urls: z.array(z.string().min(1).max(32_768)).max(64).optional().describe("URLs or paths to open"),
    additional_arguments: z.array(z.string().max(32_768)).max(256).optional().describe(
      "The program's arguments, one entry each, as they are",
    ),
    session: sessionParam,
  }),
  output: z.object({
    pid: z.number().int().nullable(),
    bundle_id: z.null(),
    name: z.string(),
    running: z.boolean().nullable(),
    active: z.boolean().describe("True when the window manager made the new window active"),
    windows: z.array(WindowRecord),
    accessibility_ready: z.boolean().describe("True once the first window's accessibility tree has content"),
    existing_instance: z.boolean().optional().describe(
      "True when the launched process handed the launch to an instance already running and exited: " +
        "pid is that instance's, windows its new ones (or, when it opened none, e.g. a tab, all of its windows)",
    ),
  }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: ["desktop.apps.launch"],
  async run(ctx, args) {
    if (!args.launch_path && !args.name && !args.urls?.length) {
      throw new DriverError("invalid_arguments", "launch_app needs launch_path, name or urls", {
        field: "launch_path",
        hint: 'pass launch_path (for example "gedit") or a name from list_apps',
      });
    }
    // Windows already open are not the launch's (an app that hands the launch to its running
    // instance opens a new window in that process).
    const before = new Set((await ctx.backend.windows.list()).map((w) => w.windowId));
    const launched = await ctx.backend.apps.launch({
      launchPath: args.launch_path,
      name: args.name,
      urls: args.urls,
      additionalArguments: args.additional_arguments,
      authorize: (program) => ctx.state.launchPolicy(program),
      mode: ctx.state.permissionMode,
    });
    let windows: WindowInfo[] = [];
    let ready = false;
    let pid = launched.pid;
    let instance: Awaited<ReturnType<typeof runningInstance>> = null;
    if (pid !== null) {
      const launcher = launched.launcher ?? null;
      const waitMs = launcher === null ? WINDOW_WAIT_MS : LAUNCHER_WAIT_MS;
      const deadline = Date.now() + waitMs;
      let followed: number | null = null;
      while (Date.now() < deadline && !ctx.signal.aborted) {
        if (launcher !== null) pid = (await ctx.backend.apps.appBehind?.(launcher)) ?? pid;
        const owner = pid;
        windows = (await ctx.backend.windows.list()).filter((w) =>
          w.pid === owner && w.isOnScreen && !before.has(w.windowId)
        );
        if (windows.length) break;
        if (launcher === null && !(await ctx.backend.apps.isAlive(owner))) {
          // A single-instance app (mousepad) passes the launch to its running instance and
          // exits with success; a process that failed handed nothing over.
          if (await exitedCleanly(ctx, owner)) {
            instance = await runningInstance(ctx, owner, launched.command, before, deadline);
          }
          if (instance) {
            pid = instance.pid;
            windows = instance.windows;
          }
          break;
        }
        if (launcher !== null && followed !== pid) {
          followed = pid;
          ctx.progress({
            message: `waiting for the window of ${launched.name} (pid ${pid}, launcher ${launcher})`,
          });
        }
        await new Promise((resolve) => setTimeout(resolve, WINDOW_POLL_MS));
      }
      const startTime = pid === launched.pid ? launched.startTime : await ctx.backend.apps.startTime(pid);
      // An instance that was running already is not this launch's to end (kill_app).
      if (!instance) ctx.state.launched.set(pid, { pid, startTime, command: launched.command });
      if (windows.length) ready = await waitForTree(ctx, pid, windows[0].windowId);
    }
    const running = pid === null ? null : await ctx.backend.apps.isAlive(pid);
    const text = pid === null
      ? `✅ Opened ${launched.name} through the desktop handler`
      : instance
      ? `✅ ${launched.name} handed the launch to its running instance (pid ${pid}) and exited; ` +
        (instance.opened
          ? `the instance opened window ${windows[0].windowId} ${JSON.stringify(windows[0].title)}`
          : `the instance opened no new window (perhaps a tab): its windows are ${
            windows.map((w) => `${w.windowId} ${JSON.stringify(w.title)}`).join(", ")
          }`)
      : `✅ Launched ${launched.name} (pid ${pid})` +
        (windows.length
          ? ` with window ${windows[0].windowId} ${JSON.stringify(windows[0].title)}`
          : launched.launcher != null && launched.launcher !== pid
          ? `; no window yet (its launcher, pid ${launched.launcher}, may still restart it: call list_windows)`
          : "; no window yet");
    return ok(
      {
        pid,
        bundle_id: null,
        name: launched.name,
        running,
        active: windows.length > 0 && (await ctx.backend.windows.active()) === windows[0].windowId,
        windows: windows.map(windowRecord),
        accessibility_ready: ready,
        ...(instance ? { existing_instance: true } : {}),
      },
      text,
    );
  },
});

/** True when a launched process that is gone exited with code 0 (or the platform cannot tell). */
async function exitedCleanly(ctx: ToolContext, pid: number): Promise<boolean> {
  const exitCode = ctx.backend.apps.exitCode?.bind(ctx.backend.apps);
  if (!exitCode) return true;
  // The status arrives a moment after the process is gone.
  const deadline = Date.now() + 500;
  while ((await exitCode(pid)) === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return (await exitCode(pid)) === 0;
}

/**
 * The running instance a launched process that exited handed its launch to: another live
 * process of the same program with windows on screen, with the windows it opened since the
 * launch (waited for until `deadline`), else all of its windows. Null when there is none.
 */
async function runningInstance(
  ctx: ToolContext,
  launchedPid: number,
  command: string,
  before: ReadonlySet<number>,
  deadline: number,
): Promise<{ pid: number; windows: WindowInfo[]; opened: boolean } | null> {
  const program = /^'?([^' ]+)/.exec(command)?.[1].split("/").at(-1)?.slice(0, 15);
  if (!program) return null;
  const same = new Set(
    (await ctx.backend.apps.listProcesses()).filter((p) => p.name === program && p.pid !== launchedPid)
      .map((p) => p.pid),
  );
  if (same.size === 0) return null;
  for (;;) {
    const windows = (await ctx.backend.windows.list()).filter((w) =>
      w.pid !== null && same.has(w.pid) && w.isOnScreen
    );
    const fresh = windows.filter((w) => !before.has(w.windowId));
    if (fresh.length) return { pid: fresh[0].pid!, windows: fresh, opened: true };
    if (Date.now() >= deadline || ctx.signal.aborted) {
      return windows.length
        ? { pid: windows[0].pid!, windows: windows.filter((w) => w.pid === windows[0].pid), opened: false }
        : null;
    }
    await new Promise((resolve) => setTimeout(resolve, WINDOW_POLL_MS));
  }
}

/** Polls the window's accessibility tree until it has more than its root, or the wait ends. */
async function waitForTree(ctx: ToolContext, pid: number, windowId: number): Promise<boolean> {
  const deadline = Date.now() + READY_WAIT_MS;
  while (Date.now() < deadline && !ctx.signal.aborted) {
    try {
      const tree = await ctx.backend.accessibility.tree(
        pid,
        windowId,
        { maxNodes: 20, maxDepth: 4 },
        ctx.signal,
      );
      if (tree.nodes.length > 1) return true;
    } catch {
      // Not registered yet.
    }
    await new Promise((resolve) => setTimeout(resolve, WINDOW_POLL_MS));
  }
  return false;
}
