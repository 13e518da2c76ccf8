import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";
import { windowLine, WindowRecord, windowRecord } from "./_window_record.ts";

/** Top-level windows with stacking order from `_NET_CLIENT_LIST_STACKING`. */
export default defineTool({
  name: "list_windows",
  title: "List windows",
  description:
    "Top-level windows, untitled and off-screen ones too, with owner pid, title, transient_for, bounds in screen points, z_index (higher is nearer the front).",
  group: "windows",
  input: z.strictObject({
    pid: z.number().int().min(1).optional().describe("Only windows of this process"),
    on_screen_only: z.boolean().default(false).describe(
      "Only mapped, viewable windows",
    ),
  }),
  output: z.object({ windows: z.array(WindowRecord) }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["desktop.windows.list"],
  async run(ctx, args) {
    const all = await ctx.backend.windows.list();
    const pids = [...new Set(all.map((w) => w.pid).filter((p): p is number => p !== null))];
    const alive = new Set<number>();
    await Promise.all(pids.map(async (pid) => {
      if (await ctx.backend.apps.isAlive(pid)) alive.add(pid);
    }));
    const windows = all
      .filter((w) => w.pid === null || alive.has(w.pid))
      // Bounded mode: windows of apps outside the manifest (and their titles) are not shown.
      .filter((w) => ctx.state.scope.allowsPid(w.pid))
      .filter((w) => args.pid === undefined || w.pid === args.pid)
      .filter((w) => !args.on_screen_only || w.isOnScreen);
    const text = `✅ Found ${windows.length} window${windows.length === 1 ? "" : "s"}` +
      (windows.length ? ":\n" + windows.map(windowLine).join("\n") : "");
    return ok({ windows: windows.map(windowRecord) }, text);
  },
});
