import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";

/** Lightweight desktop discovery: processes and visible windows (matches the reference's misnomer). */
export default defineTool({
  name: "get_accessibility_tree",
  title: "Get accessibility tree (desktop overview)",
  description: "Return a lightweight snapshot of the desktop: running processes and on-screen windows with " +
    "their bounds, z-order and owner pid. For one window's real accessibility tree use get_window_state.",
  group: "accessibility",
  input: z.strictObject({}),
  output: z.object({
    processes: z.array(z.object({ pid: z.number().int(), name: z.string() })),
    windows: z.array(z.object({
      window_id: z.number(),
      pid: z.number().nullable(),
      title: z.string(),
      app_name: z.string(),
      z_index: z.number().nullable(),
      x: z.number(),
      y: z.number(),
      width: z.number(),
      height: z.number(),
    })),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["desktop.windows.list"],
  async run(ctx) {
    const [allProcesses, windows] = await Promise.all([
      ctx.backend.apps.listProcesses(),
      ctx.backend.windows.list(),
    ]);
    // Bounded mode: processes and windows of apps outside the manifest are not shown.
    const { scope } = ctx.state;
    const processes = allProcesses.filter((p) => scope.allowsPid(p.pid));
    const visible = windows.filter((w) => w.isOnScreen && scope.allowsPid(w.pid)).reverse().map((w) => ({
      window_id: w.windowId,
      pid: w.pid,
      title: w.title,
      app_name: w.appName,
      z_index: w.zIndex,
      ...w.bounds,
    }));
    return ok(
      { processes, windows: visible },
      `✅ ${processes.length} processes, ${visible.length} visible windows:\n` +
        visible.map((w) => `[window_id=${w.window_id}] pid=${w.pid ?? "?"} ${JSON.stringify(w.title)}`).join(
          "\n",
        ),
    );
  },
});
