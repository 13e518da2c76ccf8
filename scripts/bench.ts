/**
 * Benchmarks, each against a baseline measured in the same run (these machines
 * are noisy: the verdicts are ratios of medians):
 *
 * 1. get_desktop_state of the full 1920x1080 display to PNG vs ImageMagick `import -window root png:-`.
 * 2. get_window_state of gtk3-widget-factory (tree + screenshot) vs a per-node libatspi walk.
 * 3. An MCP tools/call round trip over stdio.
 * 4. Side by side with peers (installed on first use, see scripts/bench/peers.ts): the browser
 *    snapshot against playwright-core's ariaSnapshot; 1080p PNG against C libpng; a one-shot
 *    `cua-driver get_screen_size` process against scrot and `xdotool getmouselocation`; a
 *    confirmed background click against a python-xlib XTest click (scripts/bench/click.ts); how
 *    soon a confirmed set_value and type_text answer after the app shows the text (scripts/bench/value.ts);
 *    get_window_state of 1,000- and 5,000-node GTK3 windows against a per-node libatspi walk.
 *
 * 5. Sizes: tools/list bytes and get_window_state characters on stock apps (scripts/bench/sizes.ts).
 *
 * Writes bench/results.md and bench/results.json. `--only peers` (or a comma list of peer
 * benchmarks: browser, png, cli, click, value, tree) runs just those and updates their rows; `--only sizes` the sizes
 * (`--record-before` stores them as the "before" column). On Windows (and under Wine,
 * through `sh scripts/wine.sh run scripts/bench.ts`) it runs scripts/bench/windows.ts instead.
 *
 *     deno run -A scripts/bench.ts [--runs N] [--only peers|browser,...]
 */
import { CACHED_ONLY } from "./deno_child.ts";
import { startRuntime } from "../src/runtime.ts";
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { startFixture } from "../tests/_helpers/fixture_app.ts";
import type { Backend } from "../src/ports/backend.ts";
import { bundle } from "./bundle.ts";
import { benchBrowser } from "./bench/browser.ts";
import { benchBigTree } from "./bench/big_tree.ts";
import { benchClick } from "./bench/click.ts";
import { benchValue } from "./bench/value.ts";
import { benchCli } from "./bench/cli.ts";
import { benchPng } from "./bench/png.ts";
import { openMcp } from "./bench/mcp_client.ts";
import { peerMarkdown, type PeerResults } from "./bench/peer_report.ts";
import { ensureDebianPeers } from "./bench/peers.ts";
import { runSizeReport } from "./bench/sizes.ts";

const RUNS = Number(Deno.args[Deno.args.indexOf("--runs") + 1]) || 15;
const ONLY = Deno.args.includes("--only") ? Deno.args[Deno.args.indexOf("--only") + 1].split(",") : null;
const PEERS = ["browser", "png", "cli", "click", "value", "tree"] as const;
const root = new URL("..", import.meta.url).pathname;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function sample(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await time(fn));
  return out;
}

if (Deno.build.os === "windows") {
  const { windowsBench } = await import("./bench/windows.ts");
  await windowsBench(RUNS);
  Deno.exit(0);
}

const desktop = Deno.env.get("DISPLAY") ? null : await EmbeddedDesktop.start({ handleSignals: true });
if (desktop) { for (const [k, v] of Object.entries(desktop.env)) Deno.env.set(k, v); }
const env = { ...Deno.env.toObject(), ...(desktop?.env ?? {}) };

/**
 * Runs the peer comparisons asked for (all by default) and merges them into the previous ones.
 * `backend` is the in-process driver's, with gtk3-widget-factory on screen; without one the
 * benchmarks that need it start their own.
 */
async function peerBenchmarks(previous: PeerResults | undefined, backend?: Backend): Promise<PeerResults> {
  const wanted = ONLY === null || ONLY.includes("peers") ? [...PEERS] : PEERS.filter((p) => ONLY.includes(p));
  await ensureDebianPeers();
  const peers: PeerResults = {
    ...previous,
    date: new Date().toISOString(),
    load: (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" "),
  };
  if (wanted.includes("browser")) peers.browser = await benchBrowser(env, Math.max(RUNS, 21));
  // Process starts are the noisiest row here (the same empty script takes 68-87 ms from one minute to the next).
  if (wanted.includes("cli")) peers.cli = await benchCli(env, Math.max(25, RUNS), await bundle());
  if (wanted.includes("click")) peers.click = await benchClick(env, Math.max(RUNS, 21));
  if (wanted.includes("value")) peers.value = await benchValue(env, Math.max(RUNS, 21));
  if (wanted.includes("tree")) peers.tree = await benchBigTree(env, Math.max(5, Math.ceil(RUNS / 2)));
  if (wanted.includes("png")) {
    peers.png = await withBackend(backend, (own) => benchPng(own, env, Math.max(6, Math.ceil(RUNS / 2))));
  }
  return peers;
}

/** Runs `body` with `backend`, or with a runtime of its own and gtk3-widget-factory on screen. */
async function withBackend<T>(
  backend: Backend | undefined,
  body: (backend: Backend) => Promise<T>,
): Promise<T> {
  if (backend) return await body(backend);
  const app = new Deno.Command("gtk3-widget-factory", { env, stdout: "null", stderr: "null" }).spawn();
  const own = await startRuntime({ desktop: "system", permissionMode: "standard" });
  try {
    // The factory's window, drawn: what the screen shows is the benchmark's image.
    for (let i = 0; i < 100; i++) {
      const windows = await own.registry.backend.windows.list();
      if (windows.some((w) => w.pid === app.pid)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1000));
    return await body(own.registry.backend);
  } finally {
    await own.close();
    app.kill();
    await app.status;
  }
}

/** Writes results.json (merged) and results.md (this script's sections, then the other scripts'). */
async function writeResults(update: Record<string, unknown>): Promise<string> {
  await Deno.mkdir(`${root}bench`, { recursive: true });
  // Other scripts (bench_load.ts, bench_perception.ts) add their own keys and "## " sections: keep them.
  const jsonPath = `${root}bench/results.json`;
  const previous = JSON.parse(await Deno.readTextFile(jsonPath).catch(() => "{}"));
  const merged = { ...previous, ...update };
  await Deno.writeTextFile(jsonPath, JSON.stringify(merged, null, 2) + "\n");
  const mdPath = `${root}bench/results.md`;
  const old = await Deno.readTextFile(mdPath).catch(() => "");
  const others = old.split("\n## ").slice(1).filter((section) =>
    !section.startsWith("Side by side with peers")
  );
  const text = markdown(merged).trimEnd() + "\n\n" + peerMarkdown(merged.peers ?? {}).trimEnd() + "\n" +
    others.map((section) => "\n## " + section.trimEnd() + "\n").join("");
  await Deno.writeTextFile(mdPath, text);
  // deno fmt aligns Markdown tables; format now so `deno fmt --check` stays clean after a run.
  await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", "--config", `${root}deno.json`, mdPath],
    stdout: "null",
  }).output();
  return text;
}

if (ONLY !== null) {
  try {
    if (ONLY.includes("sizes")) {
      await ensureDebianPeers();
      console.log(await runSizeReport(root, Deno.args.includes("--record-before")));
    }
    if (ONLY.some((name) => name !== "sizes")) {
      const previous = JSON.parse(await Deno.readTextFile(`${root}bench/results.json`).catch(() => "{}"));
      console.log(await writeResults({ peers: await peerBenchmarks(previous.peers) }));
    }
  } finally {
    await desktop?.stop();
  }
  Deno.exit(0);
}
const factory = new Deno.Command("gtk3-widget-factory", { env, stdout: "null", stderr: "null" }).spawn();
const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
const call = (name: string, args: Record<string, unknown>) =>
  runtime.registry.call(name, args, { lease: "bench", transport: "cli" });

try {
  // Wait for the widget factory's window and its accessibility tree.
  let windowId = 0;
  for (let i = 0; i < 100 && !windowId; i++) {
    const listed = await call("list_windows", { pid: factory.pid });
    const windows = (listed.structuredContent?.windows ?? []) as { window_id: number }[];
    if (windows.length) windowId = windows[0].window_id;
    else await new Promise((r) => setTimeout(r, 100));
  }
  if (!windowId) throw new Error("gtk3-widget-factory opened no window");
  for (let i = 0; i < 50; i++) {
    const state = await call("get_window_state", {
      pid: factory.pid,
      window_id: windowId,
      include_screenshot: false,
    });
    if (((state.structuredContent?.element_count as number) ?? 0) > 20) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  // 1. Desktop PNG vs ImageMagick.
  let pngBytes = 0;
  const desktopMs = await sample(RUNS, async () => {
    const result = await call("get_desktop_state", {});
    if (result.isError) throw new Error(JSON.stringify(result.structuredContent));
    const image = result.content.find((p) => p.type === "image");
    pngBytes = image && image.type === "image" ? Math.floor(image.data.length * 3 / 4) : 0;
  });
  let importBytes = 0;
  const importMs = await sample(Math.max(5, Math.floor(RUNS / 2)), async () => {
    const out = await new Deno.Command("import", { args: ["-window", "root", "png:-"], env, stderr: "null" })
      .output();
    importBytes = out.stdout.length;
  });

  // 2. Window state vs per-node walk.
  let nodes = 0, elements = 0;
  const windowMs = await sample(RUNS, async () => {
    const result = await call("get_window_state", { pid: factory.pid, window_id: windowId });
    if (result.isError) throw new Error(JSON.stringify(result.structuredContent));
    nodes = result.structuredContent?.total_element_count as number;
    elements = result.structuredContent?.element_count as number;
  });
  const treeOnlyMs = await sample(
    RUNS,
    () => call("get_window_state", { pid: factory.pid, window_id: windowId, include_screenshot: false }),
  );
  const walkOut = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...CACHED_ONLY, `${root}scripts/bench/atspi_walk.ts`, String(factory.pid), "7"],
    env,
    stderr: "inherit",
  }).output();
  const walk = JSON.parse(new TextDecoder().decode(walkOut.stdout)) as { nodes: number; ms: number[] };

  // 3. MCP round trip, background element clicks and typing, over stdio.
  const mcpRuns = await mcpBenchmarks(env);
  const mcpMs = mcpRuns.cursor;
  const injectMs = await keystrokeInjection(env);

  const results = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    runs: RUNS,
    desktop_png: {
      get_desktop_state_median_ms: median(desktopMs),
      import_median_ms: median(importMs),
      speedup: median(importMs) / median(desktopMs),
      png_bytes: pngBytes,
      import_png_bytes: importBytes,
    },
    window_state: {
      app: "gtk3-widget-factory",
      nodes,
      elements,
      get_window_state_median_ms: median(windowMs),
      tree_only_median_ms: median(treeOnlyMs),
      per_node_walk_nodes: walk.nodes,
      per_node_walk_median_ms: median(walk.ms),
      speedup: median(walk.ms) / median(windowMs),
    },
    mcp_round_trip: { tool: "get_cursor_position", calls: mcpMs.length, median_ms: median(mcpMs) },
    actions: {
      element_click_median_ms: median(mcpRuns.clicks),
      element_clicks: mcpRuns.clicks.length,
      type_200_keystrokes_median_ms: median(mcpRuns.keystrokes),
      type_200_insert_median_ms: median(mcpRuns.inserts),
      type_200_injection_median_ms: median(injectMs),
    },
  };
  const previous = JSON.parse(await Deno.readTextFile(`${root}bench/results.json`).catch(() => "{}"));
  const peers = await peerBenchmarks(previous.peers, runtime.registry.backend);
  console.log(await writeResults({ ...results, peers }));
  console.log(await runSizeReport(root));
} finally {
  await runtime.close();
  try {
    factory.kill("SIGKILL");
  } catch { /* gone */ }
  await factory.status;
  await desktop?.stop();
}

/**
 * The driver's own typing speed: 200 characters injected through the private keyboard
 * into a background field, timed until the last key event is sent; each run is then
 * checked in the app's journal (it must hold exactly the text) before the next.
 */
async function keystrokeInjection(env: Record<string, string>): Promise<number[]> {
  const fixture = await startFixture(env, { title: "Bench typing", x: 1300, y: 80 });
  const input = runtime.registry.backend.input;
  const text = "The quick brown fox jumps over the lazy dog. ".repeat(5).slice(0, 200);
  const times: number[] = [];
  try {
    const state = await call("get_window_state", { pid: fixture.pid, window_id: fixture.xid });
    const elements = state.structuredContent?.elements as { label: string; element_token: string }[];
    const entry = elements.find((e) => e.label === "txt-input")!;
    const field = fixture.widgets["txt-input"];
    await call("click", { pid: fixture.pid, window_id: fixture.xid, x: field.x + 10, y: field.y + 5 });
    const keyboard = await input.keyboard("background");
    for (let i = 0; i < 5; i++) {
      await call("set_value", { element_token: entry.element_token, value: "" });
      let sent = 0;
      await input.withBackgroundKeyboard(fixture.xid, async () => {
        const started = performance.now();
        await keyboard.typeText(text);
        sent = performance.now() - started;
      });
      await fixture.waitFor((e) => e.mirror === text, 5000);
      times.push(sent);
    }
    return times;
  } finally {
    await fixture.stop();
  }
}

/** MCP round trips, background element clicks and typing through one MCP session. */
async function mcpBenchmarks(env: Record<string, string>) {
  const mcp = await openMcp(env);
  const fixture = await startFixture(env, { title: "Bench fixture", x: 1300, y: 80 });
  try {
    const cursor: number[] = [];
    await mcp.call("get_cursor_position", {});
    for (let i = 0; i < 50; i++) cursor.push((await mcp.call("get_cursor_position", {})).ms);

    const state =
      (await mcp.call("get_window_state", { pid: fixture.pid, window_id: fixture.xid })).structured;
    const elements = state.elements as { label: string; element_token: string }[];
    const button = elements.find((e) => e.label === "btn-increment")!;
    const clicks: number[] = [];
    for (let i = 0; i < 30; i++) {
      clicks.push((await mcp.call("click", { element_token: button.element_token })).ms);
    }
    await fixture.waitFor((e) => e.counter === 30, 5000);

    const entry = elements.find((e) => e.label === "txt-input")!;
    const field = fixture.widgets["txt-input"];
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(5).slice(0, 200);
    const keystrokes: number[] = [];
    const inserts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await mcp.call("set_value", { element_token: entry.element_token, value: "" });
      const typed = await mcp.call("type_text", {
        pid: fixture.pid,
        window_id: fixture.xid,
        x: field.x + 10,
        y: field.y + 5,
        text,
      });
      if (typed.structured.effect !== "confirmed") {
        throw new Error(`typing was not confirmed: ${JSON.stringify(typed.structured)}`);
      }
      keystrokes.push(typed.ms);
      await mcp.call("set_value", { element_token: entry.element_token, value: "" });
      inserts.push((await mcp.call("type_text", { element_token: entry.element_token, text })).ms);
    }
    await fixture.waitFor((e) => e.mirror === text, 5000);
    return { cursor, clicks, keystrokes, inserts };
  } finally {
    await fixture.stop();
    await mcp.close();
  }
}

function markdown(r: {
  date: string;
  deno: string;
  runs: number;
  desktop_png: Record<string, number>;
  window_state: Record<string, number | string>;
  mcp_round_trip: Record<string, number | string>;
  actions: Record<string, number>;
}): string {
  const f = (n: number | string) =>
    typeof n === "number" ? (Number.isInteger(n) ? String(n) : n.toFixed(1)) : n;
  const d = r.desktop_png, w = r.window_state, m = r.mcp_round_trip, a = r.actions;
  return `# Benchmark results

Measured ${r.date} with Deno ${r.deno}, ${r.runs} runs per median, on this repository's embedded desktop
(Xvfb 1920x1080x24, openbox). Produced by \`deno task bench\`; every baseline ran in the same run.

| Benchmark | cua-driver (median) | Baseline (median) | Ratio | Target |
| --- | --- | --- | --- | --- |
| get_desktop_state, 1920x1080 PNG | ${f(d.get_desktop_state_median_ms)} ms (${
    f(d.png_bytes)
  } B) | ImageMagick \`import -window root png:-\`: ${f(d.import_median_ms)} ms (${
    f(d.import_png_bytes)
  } B) | ${f(d.speedup)}x faster | ≥ 6x |
| get_window_state, gtk3-widget-factory, tree + screenshot | ${f(w.get_window_state_median_ms)} ms (${
    f(w.nodes)
  } nodes, ${f(w.elements)} elements) | per-node libatspi walk: ${f(w.per_node_walk_median_ms)} ms (${
    f(w.per_node_walk_nodes)
  } nodes) | ${f(w.speedup)}x faster | < 60 ms and ≥ 4x |
| get_window_state, tree only | ${f(w.tree_only_median_ms)} ms | | | |
| MCP tools/call round trip over stdio (${m.tool}) | ${f(m.median_ms)} ms (${m.calls} calls) | | | |
| Background element click through MCP (request to reply, no settle) | ${
    f(a.element_click_median_ms)
  } ms (${a.element_clicks} clicks, all journalled) | | | < 10 ms |
| Typing 200 characters: keystroke injection on the private keyboard (each run then checked in the app's journal) | ${
    f(a.type_200_injection_median_ms)
  } ms | | | < 300 ms |
| type_text 200 characters as keystrokes, end to end (focus click, keys, the app processes them, read back) | ${
    f(a.type_200_keystrokes_median_ms)
  } ms | | | |
| type_text 200 characters into an element (AT-SPI insert, read back) | ${
    f(a.type_200_insert_median_ms)
  } ms | | | |
`;
}
