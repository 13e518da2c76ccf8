/**
 * Desktop capture on Wayland against grim, in the same run on the same headless sway session
 * (tests/_helpers/sway_session.ts, one native GTK3 fixture window): the driver's screencopy
 * capture plus the project's PNG encoder in a long-lived process (what get_desktop_state does in
 * a server), get_desktop_state through MCP, and `grim -` (capture and PNG, one process each).
 * Interleaved run by run; medians. Also list_windows against `swaymsg -t get_tree`.
 *
 *     deno run -A scripts/bench_wayland.ts [runs]     (prints a markdown table)
 *
 * @module
 */
import { encodePng } from "../src/lib/image/png.ts";
import { WaylandDisplay } from "../src/backends/wayland/display.ts";
import { Screencopy } from "../src/backends/wayland/screencopy.ts";
import { SwayIpc } from "../src/backends/wayland/sway_ipc.ts";
import { ToplevelList } from "../src/backends/wayland/toplevels.ts";
import { WaylandWindows } from "../src/backends/wayland/windows.ts";
import { denoEnv } from "../tests/_helpers/driver.ts";
import { startFixture } from "../tests/_helpers/fixture_app.ts";
import { McpLines } from "../tests/_helpers/mcp_lines.ts";
import { SwaySession, swayUnavailable } from "../tests/_helpers/sway_session.ts";

const runs = Number(Deno.args[0] ?? 15);
const why = swayUnavailable();
if (why) {
  console.error(`bench_wayland: ${why}`);
  Deno.exit(1);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
async function timed(body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}
async function run(program: string, args: string[], env: Record<string, string>): Promise<void> {
  const out = await new Deno.Command(program, { args, env, clearEnv: true, stdout: "piped", stderr: "null" })
    .output();
  if (!out.success) throw new Error(`${program} failed`);
}

await using sway = await SwaySession.start();
await using _app = await startFixture(sway.appEnv(), { title: "bench" });
const display = new WaylandDisplay(`${sway.runtimeDir}/${sway.env.WAYLAND_DISPLAY}`);
const screencopy = new Screencopy(display);
const windows = new WaylandWindows(new ToplevelList(display), new SwayIpc(sway.env.SWAYSOCK));
const output = (await display.connected()).outputs[0].id;
const configDir = await Deno.makeTempDir({ prefix: "cua-bench-wayland-" });
await using mcp = new McpLines(denoEnv({ ...sway.env, CUA_DRIVER_CONFIG_DIR: configDir }), [
  "--desktop",
  "auto",
]);
await mcp.initialize();

const samples: Record<string, number[]> = { driver: [], mcp: [], grim: [], list: [], swaymsg: [] };
let bytes = 0;
// One warm-up round each (buffers, caches), then interleaved measured runs.
for (let i = -1; i < runs; i++) {
  const driver = await timed(async () => {
    const png = await encodePng(await screencopy.capture(output));
    bytes = png.length;
  });
  const viaMcp = await timed(() =>
    mcp.call("get_desktop_state", { screenshot_out_file: `${configDir}/d.png` })
  );
  const grim = await timed(() => run("grim", ["-"], sway.env));
  const list = await timed(() => windows.list());
  const swaymsg = await timed(() => run("swaymsg", ["-t", "get_tree"], sway.env));
  if (i < 0) continue;
  samples.driver.push(driver);
  samples.mcp.push(viaMcp);
  samples.grim.push(grim);
  samples.list.push(list);
  samples.swaymsg.push(swaymsg);
}
screencopy.dispose();
await display.close();
await Deno.remove(configDir, { recursive: true });

const ms = (v: number) => `${v.toFixed(1)} ms`;
const [driver, viaMcp, grim, list, swaymsg] = [
  samples.driver,
  samples.mcp,
  samples.grim,
  samples.list,
  samples.swaymsg,
]
  .map(median);
console.log(
  `Measured ${new Date().toISOString()}, ${runs} interleaved runs per median, headless sway 1.7 ` +
    `(pixman, 1920x1080), load average ${
      (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")
    }.\n`,
);
console.log("| Benchmark | cua-driver (median) | Baseline (median) | Ratio (driver / baseline) | Target |");
console.log("| --- | --- | --- | --- | --- |");
console.log(
  `| Desktop capture + PNG, in the server process | ${ms(driver)} (${bytes} B) | \`grim -\`: ${ms(grim)} | ` +
    `${(driver / grim).toFixed(2)}x | ≤ 1.5x |`,
);
console.log(
  `| get_desktop_state through MCP (stdio round trip) | ${ms(viaMcp)} | \`grim -\`: ${ms(grim)} | ` +
    `${(viaMcp / grim).toFixed(2)}x | ≤ 1.5x |`,
);
console.log(
  `| Native window list (foreign-toplevel + sway IPC) | ${ms(list)} | \`swaymsg -t get_tree\`: ${
    ms(swaymsg)
  } | ` +
    `${(list / swaymsg).toFixed(2)}x | |`,
);
