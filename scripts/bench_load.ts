/**
 * Load benchmark of the daemon's network port: 50 concurrent clients (25 MCP over
 * HTTP, 25 gRPC over HTTP/2) making 2,000 read-only calls in total, a client killed
 * mid-call, then the p50 of a gRPC GetCursorPosition from one client.
 *
 * Starts `cua-driver serve` (on its own embedded desktop unless DISPLAY is set) and
 * appends its results to bench/results.json and bench/results.md.
 *
 *     deno run -A scripts/bench_load.ts
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CACHED_ONLY } from "./deno_child.ts";
import { ComputerService } from "../src/transports/network/grpc/gen/cua/env/v1/computer_pb.ts";
import { DriverService } from "../src/transports/network/grpc/gen/cua/env/v1/driver_pb.ts";
import { freePort } from "../tests/_helpers/free_port.ts";

const root = new URL("..", import.meta.url).pathname;
const TOKEN = crypto.randomUUID().replaceAll("-", "") + "load";
const CLIENTS = 50;
const CALLS = 2000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

const port = freePort();
const socketDir = await Deno.makeTempDir({ prefix: "cua-load-" });
const daemon = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--quiet",
    ...CACHED_ONLY,
    `${root}src/main.ts`,
    "serve",
    "--socket",
    `${socketDir}/d.sock`,
  ],
  env: {
    CUA_DRIVER_RS_MCP_HTTP_PORT: String(port),
    CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN,
    DENO_NO_PACKAGE_JSON: "1",
  },
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();
const stderr = daemon.stderr.pipeThrough(new TextDecoderStream()).getReader();
let banner = "";
while (!banner.includes("listening")) {
  const { value, done } = await stderr.read();
  if (done) throw new Error(`serve exited: ${banner}`);
  banner += value;
}
(async () => {
  while (!(await stderr.read()).done) { /* drain */ }
})();

const url = `http://127.0.0.1:${port}`;
const grpcTransport = () =>
  createGrpcTransport({
    baseUrl: url,
    interceptors: [(next) => (req) => {
      req.header.set("authorization", `Bearer ${TOKEN}`);
      return next(req);
    }],
  });

async function mcpCall(name: string): Promise<void> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });
  const body = await response.json();
  if (response.status !== 200 || body.error || body.result?.isError) {
    throw new Error(`MCP ${name}: ${JSON.stringify(body)}`);
  }
}

let errors = 0;
const latencies: number[] = [];
try {
  const perClient = CALLS / CLIENTS;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
    const grpc = i % 2 === 1;
    const computer = grpc ? createClient(ComputerService, grpcTransport()) : null;
    const driver = grpc ? createClient(DriverService, grpcTransport()) : null;
    for (let n = 0; n < perClient; n++) {
      const t0 = performance.now();
      try {
        if (!grpc) await mcpCall(n % 2 ? "get_cursor_position" : "get_screen_size");
        else if (n % 2) await computer!.getCursorPosition({});
        else {
          const result = await driver!.callTool({ name: "get_screen_size", argumentsJson: "{}" });
          if (result.isError) throw new Error(result.structuredJson);
        }
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors++;
        if (errors < 5) {
          console.error(`call failed: ${(error as Error).message} ${String((error as Error).cause ?? "")}`);
        }
      }
    }
  }));
  const loadSeconds = (performance.now() - started) / 1000;

  // A client killed mid-call: a grpc-js-free subprocess making a slow call.
  const victim = new Deno.Command("curl", {
    args: [
      "-s",
      "-X",
      "POST",
      "-H",
      `authorization: Bearer ${TOKEN}`,
      "-H",
      "content-type: application/json",
      "-H",
      "accept: application/json, text/event-stream",
      "--data",
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_desktop_state","arguments":{}}}',
      `${url}/mcp`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  await new Promise((r) => setTimeout(r, 20));
  victim.kill("SIGKILL");
  await victim.status;
  await mcpCall("get_screen_size"); // Still serving.

  const single = createClient(ComputerService, grpcTransport());
  await single.getCursorPosition({});
  const cursor: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await single.getCursorPosition({});
    cursor.push(performance.now() - t0);
  }
  const results = {
    date: new Date().toISOString(),
    clients: CLIENTS,
    calls: latencies.length + errors,
    errors,
    seconds: Number(loadSeconds.toFixed(2)),
    calls_per_second: Math.round((latencies.length + errors) / loadSeconds),
    p50_ms_under_load: Number(percentile(latencies, 0.5).toFixed(2)),
    p99_ms_under_load: Number(percentile(latencies, 0.99).toFixed(2)),
    killed_client_then_served: true,
    grpc_get_cursor_position_p50_ms: Number(percentile(cursor, 0.5).toFixed(2)),
  };
  console.log(JSON.stringify(results, null, 2));
  const jsonPath = `${root}bench/results.json`;
  const all = JSON.parse(await Deno.readTextFile(jsonPath).catch(() => "{}"));
  all.load = results;
  await Deno.writeTextFile(jsonPath, JSON.stringify(all, null, 2) + "\n");
  const mdPath = `${root}bench/results.md`;
  const md = (await Deno.readTextFile(mdPath).catch(() => "# Benchmark results\n")).replace(
    /\n## Load[\s\S]*?(?=\n## |$)/,
    "",
  );
  await Deno.writeTextFile(
    mdPath,
    md.trimEnd() + `\n\n## Load (\`deno run -A scripts/bench_load.ts\`, ${results.date})\n\n` +
      `| Measure | Value | Target |\n| --- | --- | --- |\n` +
      `| Concurrent clients (MCP HTTP + gRPC, half each) | ${CLIENTS} | 50 |\n` +
      `| Read-only calls / errors | ${results.calls} / ${errors} | 2,000 / 0 |\n` +
      `| Throughput | ${results.calls_per_second} calls/s | |\n` +
      `| Latency under load p50 / p99 | ${results.p50_ms_under_load} / ${results.p99_ms_under_load} ms | |\n` +
      `| Client killed mid-call, daemon still serving | yes | yes |\n` +
      `| gRPC GetCursorPosition p50 (one client, 200 calls) | ${results.grpc_get_cursor_position_p50_ms} ms | < 3 ms |\n`,
  );
  if (errors) Deno.exitCode = 1;
} finally {
  daemon.kill("SIGTERM");
  await daemon.status;
  await Deno.remove(socketDir, { recursive: true }).catch(() => {});
}
