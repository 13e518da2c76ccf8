/**
 * Soak test of a real workflow: one `cua-driver serve` daemon, five clients at once for a
 * few minutes (two MCP over HTTP, two gRPC, one on the daemon socket), each observing and
 * acting on a GTK3 fixture app: window state with screenshots, accessibility trees,
 * clicks on its Increment button, typing, keys. Samples the daemon's RSS every 5 s and
 * checks at the end that the app's own counter equals the clicks the driver reported
 * delivered (no click lost or doubled).
 *
 * Runs on the desktop named by DISPLAY, else on its own embedded desktop, and writes its
 * figures to bench/results.json and bench/results.md.
 *
 *     deno run -A scripts/bench_soak.ts [seconds, default 180]
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { systemFor } from "../src/backends/mod.ts";
import { DaemonClient } from "../src/transports/daemon/client.ts";
import { ComputerService } from "../src/transports/network/grpc/gen/cua/env/v1/computer_pb.ts";
import { DriverService } from "../src/transports/network/grpc/gen/cua/env/v1/driver_pb.ts";
import { CACHED_ONLY, denoChildEnv } from "./deno_child.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const root = new URL("..", import.meta.url).pathname;
const SECONDS = Number(Deno.args[0] ?? 180);
const TOKEN = crypto.randomUUID().replaceAll("-", "") + "soak";

const desktop = Deno.env.get("DISPLAY") ? null : await EmbeddedDesktop.start({ handleSignals: true });
if (desktop) { for (const [key, value] of Object.entries(desktop.env)) Deno.env.set(key, value); }
const { startFixture } = await import("../tests/_helpers/fixture_app.ts");
const desktopEnv = Object.fromEntries(
  [
    "DISPLAY",
    "DBUS_SESSION_BUS_ADDRESS",
    "XDG_RUNTIME_DIR",
    "GDK_BACKEND",
    "NO_AT_BRIDGE",
    "ACCESSIBILITY_ENABLED",
  ]
    .flatMap((key) => Deno.env.get(key) ? [[key, Deno.env.get(key)!]] : []),
);
const app = await startFixture(desktopEnv, { title: "Soak target", x: 40, y: 40 });

const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const port = (listener.addr as Deno.NetAddr).port;
listener.close();
const dir = await Deno.makeTempDir({ prefix: "cua-soak-" });
const socket = `${dir}/d.sock`;
const daemon = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--quiet", ...CACHED_ONLY, `${root}src/main.ts`, "serve", "--socket", socket],
  env: {
    ...desktopEnv,
    ...denoChildEnv(),
    CUA_DRIVER_CONFIG_DIR: `${dir}/config`,
    CUA_DRIVER_RS_MCP_HTTP_PORT: String(port),
    CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN,
  },
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();
const stderr = daemon.stderr.pipeThrough(new TextDecoderStream()).getReader();
let log = "";
while (!log.includes("listening")) {
  const { value, done } = await stderr.read();
  if (done) throw new Error(`serve exited: ${log}`);
  log += value;
}
(async () => {
  for (let r = await stderr.read(); !r.done; r = await stderr.read()) log = (log + r.value).slice(-20_000);
})();

const url = `http://127.0.0.1:${port}`;
const target = { kind: "window", pid: app.pid, window_id: app.xid };
const increment = app.widgets["btn-increment"];
const entry = app.widgets["txt-input"];

type Call = (name: string, args: Json) => Promise<Json>;
async function mcpHttp(name: string, args: Json): Promise<Json> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`MCP ${name}: ${JSON.stringify(body.error)}`);
  return body.result;
}
const grpcTransport = createGrpcTransport({
  baseUrl: url,
  interceptors: [(next) => (req) => {
    req.header.set("authorization", `Bearer ${TOKEN}`);
    return next(req);
  }],
});
const driverService = createClient(DriverService, grpcTransport);
const computerService = createClient(ComputerService, grpcTransport);
const grpcCall: Call = async (name, args) => {
  const result = await driverService.callTool({ name, argumentsJson: JSON.stringify(args) });
  return { isError: result.isError, structuredContent: JSON.parse(result.structuredJson || "{}") };
};
const socketClient = await DaemonClient.connect((await systemFor()).sockets, socket);
const socketCall: Call = (name, args) =>
  socketClient.call(name, args, { lease: "soak", transport: "daemon" });

// What each client does in a loop: an observation, then an action, on the fixture.
const observe = (call: Call) => call("get_window_state", { pid: app.pid, window_id: app.xid });
const click = (call: Call) =>
  call("click", { target, x: increment.x + increment.width / 2, y: increment.y + increment.height / 2 });
const CLIENTS: { name: string; call: Call; steps: ((call: Call) => Promise<Json>)[] }[] = [
  { name: "mcp-http observe+click", call: mcpHttp, steps: [observe, click] },
  {
    name: "mcp-http type+key",
    call: mcpHttp,
    steps: [
      observe,
      (c) => c("type_text", { target, x: entry.x + 30, y: entry.y + entry.height / 2, text: "soak" }),
      (c) => c("press_key", { target, key: "ctrl+a" }),
      (c) => c("press_key", { target, key: "BackSpace" }),
    ],
  },
  {
    name: "grpc screenshot+list",
    call: grpcCall,
    steps: [
      async () => await computerService.screenshot({}),
      (c) => c("list_windows", {}),
      (c) => c("get_accessibility_tree", {}),
    ],
  },
  { name: "grpc observe+click", call: grpcCall, steps: [observe, click] },
  {
    name: "socket desktop+cursor",
    call: socketCall,
    steps: [(c) => c("get_desktop_state", {}), async () => await computerService.getCursorPosition({})],
  },
];

const rssOf = () =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${daemon.pid}/status`))?.[1] ?? 0) / 1024,
  );
const rss: number[] = [rssOf()];
const sampler = setInterval(() => rss.push(rssOf()), 5_000);
const codes = new Map<string, number>();
const latencies: number[] = [];
let calls = 0, internal = 0, deliveredClicks = 0, confirmedClicks = 0;
const deadline = performance.now() + SECONDS * 1000;
await Promise.all(CLIENTS.map(async (client) => {
  for (let n = 0; performance.now() < deadline; n++) {
    const step = client.steps[n % client.steps.length];
    const t0 = performance.now();
    try {
      const result = await step(client.call);
      if (result?.isError) {
        const code = result.structuredContent?.code ?? "no_code";
        codes.set(code, (codes.get(code) ?? 0) + 1);
        if (code === "internal_error" || code === "no_code") internal++;
      } else if (step === click) {
        deliveredClicks++;
        if (result?.structuredContent?.effect === "confirmed") confirmedClicks++;
      }
    } catch (error) {
      internal++;
      codes.set("transport_error", (codes.get("transport_error") ?? 0) + 1);
      if (internal < 5) console.error(`${client.name}: ${(error as Error).message}`);
    }
    latencies.push(performance.now() - t0);
    calls++;
  }
}));
clearInterval(sampler);
rss.push(rssOf());
// The app's own count of increments, once its queue has drained.
await new Promise((resolve) => setTimeout(resolve, 1000));
const counter = Number((await app.readJournal()).filter((e) => e.event === "click").at(-1)?.counter ?? 0);

socketClient.close();
daemon.kill("SIGTERM");
await daemon.status;
await app.stop();
await desktop?.stop();
await Deno.remove(dir, { recursive: true }).catch(() => {});

const sorted = [...latencies].sort((a, b) => a - b);
const p = (q: number) =>
  Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1));
const date = new Date().toISOString();
const figures = {
  date,
  seconds: SECONDS,
  clients: CLIENTS.length,
  calls,
  internal_errors: internal,
  codes: Object.fromEntries(codes),
  delivered_clicks: deliveredClicks,
  confirmed_clicks: confirmedClicks,
  app_counter: counter,
  p50_ms: p(0.5),
  p99_ms: p(0.99),
  rss_mb: { first: rss[0], min: Math.min(...rss), max: Math.max(...rss), last: rss.at(-1) },
  load: Deno.loadavg().map((v) => v.toFixed(2)).join(" "),
};
console.log(JSON.stringify(figures, null, 2));
if (/internal_error|Uncaught/.test(log)) console.log(`daemon stderr:\n${log.slice(-3000)}`);

const jsonPath = `${root}bench/results.json`;
const all = JSON.parse(await Deno.readTextFile(jsonPath).catch(() => "{}"));
all.soak = figures;
await Deno.writeTextFile(jsonPath, JSON.stringify(all, null, 2) + "\n");
const mdPath = `${root}bench/results.md`;
const md = (await Deno.readTextFile(mdPath).catch(() => "# Benchmark results\n")).replace(
  /\n## Soak[\s\S]*?(?=\n## |$)/,
  "",
);
const codeText = [...codes].map(([c, n]) => `${c} ${n}`).join(", ") || "none";
await Deno.writeTextFile(
  mdPath,
  md.trimEnd() + `\n\n## Soak (\`deno run -A scripts/bench_soak.ts ${SECONDS}\`, ${date})\n\n` +
    "One daemon, five clients at once (two MCP over HTTP, two gRPC, one on the daemon socket) observing and " +
    "acting on the GTK3 fixture for the whole run.\n\n| Figure | Value |\n| --- | --- |\n" +
    `| Calls in ${SECONDS} s | ${calls} |\n| Internal or transport errors | ${internal} |\n` +
    `| Refusals by code | ${codeText} |\n` +
    `| Clicks reported delivered (confirmed) / the app's counter | ${deliveredClicks} (${confirmedClicks}) / ${counter} |\n` +
    `| Latency p50 / p99 | ${figures.p50_ms} / ${figures.p99_ms} ms |\n` +
    `| Daemon RSS first / min / max / last | ${
      rss[0]
    } / ${figures.rss_mb.min} / ${figures.rss_mb.max} / ${figures.rss_mb.last} MB |\n` +
    `| Load average at the end | ${figures.load} |\n`,
);
Deno.exit(internal ? 1 : 0);
