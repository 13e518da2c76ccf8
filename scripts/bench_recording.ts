/**
 * What recording costs an action: the median round trip of a background pixel click on
 * the GTK3 fixture without recording, while recording turns, and while also recording
 * video; and how long after its answer a turn's folder is complete.
 *
 *     deno run -A scripts/bench_recording.ts [--runs N]
 */
import { join } from "node:path";
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { startRuntime } from "../src/runtime.ts";
import { startFixture } from "../tests/_helpers/fixture_app.ts";
import { recorderOf } from "../src/features/recording/slot.ts";

const RUNS = Number(Deno.args[Deno.args.indexOf("--runs") + 1]) || 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const desktop = Deno.env.get("DISPLAY") ? null : await EmbeddedDesktop.start({ handleSignals: true });
if (desktop) { for (const [k, v] of Object.entries(desktop.env)) Deno.env.set(k, v); }
Deno.env.set("CUA_DRIVER_CONFIG_DIR", await Deno.makeTempDir());
const app = await startFixture(Deno.env.toObject(), { title: "Recording bench", x: 40, y: 40 });
const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
const call = async (name: string, args: Record<string, unknown>) => {
  const result = await runtime.registry.call(name, args, { lease: "bench", transport: "cli" });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent ?? {};
};
const dirs: string[] = [];

try {
  const state = await call("get_window_state", { pid: app.pid, window_id: app.xid });
  const scale = state.screenshot_scale as number;
  const bounds = state.bounds as { width: number; height: number };
  const button = app.widgets["btn-increment"];
  const click = {
    pid: app.pid,
    window_id: app.xid,
    x: Math.round((button.x + button.width / 2) * scale),
    y: Math.round((button.y + button.height / 2) * scale),
  };
  const clicks = async () => {
    const times: number[] = [];
    const written: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await call("click", click);
      const answered = performance.now();
      times.push(answered - started);
      const recording = recorderOf(runtime.registry.state).state();
      if (recording.recording) {
        const turn = join(recording.output_dir!, `turn-${String(recording.next_turn - 1).padStart(5, "0")}`);
        while (!(await Deno.stat(turn).then(() => true, () => false))) {
          await new Promise((r) => setTimeout(r, 2));
        }
        written.push(performance.now() - answered);
      }
      await new Promise((r) => setTimeout(r, 50)); // an agent's think time, at its shortest
    }
    return { click: median(times), written: written.length ? median(written) : null };
  };
  await clicks(); // warm-up
  const off = await clicks();
  const record = async (video: boolean) => {
    const dir = await Deno.makeTempDir({ prefix: "cua-bench-recording-" });
    dirs.push(dir);
    await call("start_recording", { output_dir: dir, record_video: video });
    const measured = await clicks();
    await call("stop_recording", {});
    return measured;
  };
  const turns = await record(false);
  const video = await record(true);
  const fmt = (ms: number | null) => ms === null ? "-" : `${ms.toFixed(1)} ms`;
  console.log(
    `click round trip (median of ${RUNS}, fixture window ${bounds.width}x${bounds.height}):`,
  );
  console.log(`  not recording:          ${fmt(off.click)}`);
  console.log(
    `  recording turns:        ${fmt(turns.click)} (+${fmt(turns.click - off.click)}); folder complete ` +
      `${fmt(turns.written)} after the answer`,
  );
  console.log(
    `  recording turns+video:  ${fmt(video.click)} (+${fmt(video.click - off.click)}); folder complete ` +
      `${fmt(video.written)} after the answer`,
  );
} finally {
  await runtime.close();
  await app.stop();
  for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  await desktop?.stop();
}
