/**
 * Benchmarks, each against a baseline measured in the same run (these machines
 * are noisy: the verdicts are ratios of medians):
 *
 * 1. get_desktop_state of the full 1920x1080 display to PNG vs ImageMagick `import -window root png:-`.
 * 2. get_window_state of gtk3-widget-factory (tree + screenshot) vs a per-node libatspi walk.
 * 3. An MCP tools/call round trip over stdio.
 *
 * Writes bench/results.md and bench/results.json.
 *
 *     deno run -A scripts/bench.ts [--runs N]
 */
import { startRuntime } from "../src/runtime.ts";
import { EmbeddedDesktop } from "../src/platform/linux/embedded_desktop.ts";

const RUNS = Number(Deno.args[Deno.args.indexOf("--runs") + 1]) || 15;
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

const desktop = Deno.env.get("DISPLAY") ? null : await EmbeddedDesktop.start({ handleSignals: true });
if (desktop) { for (const [k, v] of Object.entries(desktop.env)) Deno.env.set(k, v); }
const env = { ...Deno.env.toObject(), ...(desktop?.env ?? {}) };
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
    args: ["run", "-A", `${root}scripts/bench/atspi_walk.ts`, String(factory.pid), "7"],
    env,
    stderr: "inherit",
  }).output();
  const walk = JSON.parse(new TextDecoder().decode(walkOut.stdout)) as { nodes: number; ms: number[] };

  // 3. MCP round trip over stdio.
  const mcpMs = await mcpRoundTrips(env, 50);

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
  };
  await Deno.mkdir(`${root}bench`, { recursive: true });
  await Deno.writeTextFile(`${root}bench/results.json`, JSON.stringify(results, null, 2) + "\n");
  await Deno.writeTextFile(`${root}bench/results.md`, markdown(results));
  console.log(markdown(results));
} finally {
  await runtime.close();
  try {
    factory.kill("SIGKILL");
  } catch { /* gone */ }
  await factory.status;
  await desktop?.stop();
}

async function mcpRoundTrips(env: Record<string, string>, count: number): Promise<number[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${root}src/main.ts`, "mcp", "--desktop", "system"],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async (): Promise<string> => {
    while (!buffer.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("driver closed stdout");
      buffer += value;
    }
    const line = buffer.slice(0, buffer.indexOf("\n"));
    buffer = buffer.slice(buffer.indexOf("\n") + 1);
    return line;
  };
  const send = (message: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  await send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
  });
  await next();
  const times: number[] = [];
  for (let i = 1; i <= count + 1; i++) {
    const started = performance.now();
    await send({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "get_cursor_position", arguments: {} },
    });
    await next();
    if (i > 1) times.push(performance.now() - started);
  }
  await writer.close();
  await child.status;
  reader.releaseLock();
  return times;
}

function markdown(r: {
  date: string;
  deno: string;
  runs: number;
  desktop_png: Record<string, number>;
  window_state: Record<string, number | string>;
  mcp_round_trip: Record<string, number | string>;
}): string {
  const f = (n: number | string) =>
    typeof n === "number" ? (Number.isInteger(n) ? String(n) : n.toFixed(1)) : n;
  const d = r.desktop_png, w = r.window_state, m = r.mcp_round_trip;
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
`;
}
