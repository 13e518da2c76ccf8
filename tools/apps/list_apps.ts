import { z } from "../../src/lib/schema/mod.ts";
import { ok } from "../../src/kernel/result.ts";
import { defineTool } from "../../src/kernel/tool.ts";

const AppRecord = z.object({
  pid: z.number().int(),
  bundle_id: z.string().nullable(),
  name: z.string(),
  running: z.boolean(),
  active: z.boolean(),
  kind: z.string().nullable(),
  launch_path: z.string().nullable(),
  last_used: z.string().nullable(),
  windows: z.array(z.unknown()),
});

/** Running processes merged with installed desktop apps. */
export default defineTool({
  name: "list_apps",
  title: "List apps",
  description:
    "Running and installed apps (Linux: running processes and XDG .desktop entries): running, pid (0 when not running), bundle_id (desktop-file id), launch_path. Pass launch_path or name to launch_app.",
  group: "apps",
  input: z.strictObject({}),
  output: z.object({
    apps: z.array(AppRecord),
    processes: z.array(z.object({ pid: z.number().int(), name: z.string() })),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r2",
  capabilities: ["desktop.apps.list"],
  async run(ctx) {
    const [allApps, allProcesses] = await Promise.all([
      ctx.backend.apps.listApps(),
      ctx.backend.apps.listProcesses(),
    ]);
    // Bounded mode: only the manifest's apps, running or installed.
    const { scope } = ctx.state;
    const apps = allApps.filter((a) =>
      a.running ? scope.allowsPid(a.pid) : !scope.bounded || scope.allowsProgram(programOf(a.launchPath))
    );
    const processes = allProcesses.filter((p) => scope.allowsPid(p.pid));
    const running = apps.filter((a) => a.running);
    const records = apps.map((a) => ({
      pid: a.pid,
      bundle_id: a.bundleId,
      name: a.name,
      running: a.running,
      active: a.active,
      kind: a.kind,
      launch_path: a.launchPath,
      last_used: a.lastUsed,
      windows: [],
    }));
    const lines = running.slice(0, 50).map((a) => `pid=${a.pid} ${a.name}`);
    return ok(
      { apps: records, processes },
      `✅ ${apps.length} apps (${running.length} running, ${apps.length - running.length} installed)` +
        (lines.length ? ":\n" + lines.join("\n") + (running.length > 50 ? "\n…" : "") : ""),
    );
  },
});

/** The program of a launch path (its first word, a quoted one whole). */
function programOf(launchPath: string | null): string {
  if (!launchPath) return "";
  const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(launchPath);
  return quoted ? quoted[1] : launchPath.split(/\s+/)[0];
}
