/**
 * How fast input stops when its call is aborted. For each kind of abort, a slow type_text
 * (25 ms a character) or a long background drag is started on the GTK3 fixture and
 * aborted once the app shows it; the latency is the time from the abort to the app's
 * last journal entry caused by the input (its clock and ours are the same wall clock).
 * Target for every kind: under 50 ms.
 *
 * Runs on the desktop named by DISPLAY, else on its own embedded desktop, and appends its
 * results to bench/results.json and bench/results.md.
 *
 *     deno run -A scripts/bench_cancel.ts [runs per kind, default 5]
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { startRuntime } from "../src/runtime.ts";
import { CACHED_ONLY, denoChildEnv } from "./deno_child.ts";

const root = new URL("..", import.meta.url).pathname;
const RUNS = Number(Deno.args[0] ?? 5);
const TEXT = "x".repeat(400);

const desktop = Deno.env.get("DISPLAY") ? null : await EmbeddedDesktop.start({ handleSignals: true });
if (desktop) { for (const [key, value] of Object.entries(desktop.env)) Deno.env.set(key, value); }
const { startFixture } = await import("../tests/_helpers/fixture_app.ts");
type Fixture = Awaited<ReturnType<typeof startFixture>>;

Deno.env.set("CUA_DRIVER_CONFIG_DIR", await Deno.makeTempDir({ prefix: "cua-bench-cancel-" }));
const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
const env = Object.fromEntries(
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The arguments that start input on the fixture, after the caller observed it (scale). */
function inputFor(kind: "type" | "drag", app: Fixture, scale: number): [string, Record<string, unknown>] {
  const target = { kind: "window", pid: app.pid, window_id: app.xid };
  const at = (name: string, dx: number, dy: number) => {
    const w = app.widgets[name];
    return { x: Math.round((w.x + dx) * scale), y: Math.round((w.y + dy) * scale) };
  };
  if (kind === "type") {
    return ["type_text", { target, ...at("txt-input", 40, 17), text: TEXT, delay_ms: 25 }];
  }
  const from = at("drag-area", 10, 50), to = at("drag-area", 260, 50);
  return ["drag", {
    target,
    from_x: from.x,
    from_y: from.y,
    to_x: to.x,
    to_y: to.y,
    duration_ms: 8000,
    steps: 200,
  }];
}

/** The journal entry that shows input under way, and the one caused by input (the last must be before the stop). */
const STARTED = {
  type: (e: Record<string, unknown>) => typeof e.mirror === "string" && e.mirror.length >= 8,
  drag: (e: Record<string, unknown>) => e.event === "drag_press",
};
const CAUSED = {
  type: (e: Record<string, unknown>) => e.event === "text",
  drag: (e: Record<string, unknown>) => e.event === "drag",
};

interface Kind {
  name: string;
  input: "type" | "drag";
  /** Observes the fixture, starts the input, returns a function that aborts it. */
  run(app: Fixture): Promise<() => Promise<void>>;
}

async function observed(
  call: (name: string, args: unknown) => Promise<unknown>,
  app: Fixture,
): Promise<number> {
  const state = await call("get_window_state", { pid: app.pid, window_id: app.xid }) as {
    structuredContent: { screenshot_scale: number };
  };
  return state.structuredContent.screenshot_scale;
}

function inProcess(name: string, input: "type" | "drag", how: "signal" | "session" | "kill"): Kind {
  return {
    name,
    input,
    async run(app) {
      const lease = crypto.randomUUID();
      const session = how === "session" ? { session: `bench-${lease.slice(0, 8)}` } : {};
      const controller = new AbortController();
      const call = (tool: string, args: unknown) =>
        runtime.registry.call(tool, { ...(args as object), ...session }, {
          lease,
          transport: "cli",
          signal: controller.signal,
        });
      const [tool, args] = inputFor(input, app, await observed(call, app));
      const running = call(tool, args);
      running.then((r) => {
        if (r.isError && !JSON.stringify(r.structuredContent).includes("aborted")) {
          console.error(`${name}: ${JSON.stringify(r.structuredContent).slice(0, 300)}`);
        }
      });
      return async () => {
        if (how === "signal") controller.abort();
        else if (how === "session") {
          await runtime.registry.call("end_session", session, { lease, transport: "cli" });
        } else Deno.kill(app.pid, "SIGKILL");
        await running;
      };
    },
  };
}

function mcpStdio(name: string, how: "cancel" | "close"): Kind {
  return {
    name,
    input: "type",
    async run(app) {
      const client = new Client({ name: "bench-cancel", version: "1" });
      await client.connect(
        new StdioClientTransport({
          command: Deno.execPath(),
          args: ["run", "-A", "--quiet", ...CACHED_ONLY, `${root}src/main.ts`, "mcp", "--desktop", "system"],
          env: { ...denoChildEnv(), ...env, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
          stderr: "ignore",
        }),
      );
      const call = (tool: string, args: unknown) =>
        client.callTool({ name: tool, arguments: args as Record<string, unknown> });
      const [tool, args] = inputFor("type", app, await observed(call, app));
      const controller = new AbortController();
      const running = client.callTool({ name: tool, arguments: args }, undefined, {
        signal: controller.signal,
        timeout: 120_000,
      }).catch(() => {});
      return async () => {
        if (how === "cancel") controller.abort();
        await client.close();
        await running;
      };
    },
  };
}

const KINDS: Kind[] = [
  inProcess("type_text, caller cancels (AbortSignal)", "type", "signal"),
  inProcess("type_text, session ended (end_session)", "type", "session"),
  inProcess("drag, caller cancels (button released)", "drag", "signal"),
  inProcess("type_text, target app killed (call returns)", "type", "kill"),
  mcpStdio("type_text, MCP notifications/cancelled (stdio)", "cancel"),
  mcpStdio("type_text, MCP stdio client closed", "close"),
];

const rows: { kind: string; median: number; max: number; runs: number }[] = [];
for (const kind of KINDS) {
  const latencies: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const app = await startFixture(env, { title: `Cancel bench ${run}`, x: 60, y: 60 });
    try {
      const abort = await kind.run(app);
      await app.waitFor(STARTED[kind.input], 20_000);
      const stoppedAt = Date.now();
      const killing = kind.name.includes("killed");
      const done = abort();
      if (killing) {
        // The app is gone: what counts is how soon the call gives the input lock back.
        await done;
        latencies.push(Date.now() - stoppedAt);
        continue;
      }
      await done;
      // Let anything still queued reach the app, then read its last input-caused entry.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const last = (await app.readJournal()).filter(CAUSED[kind.input]).at(-1);
      latencies.push(Math.max(0, Number(last?.t ?? stoppedAt) - stoppedAt));
    } finally {
      await app.stop().catch(() => {});
    }
  }
  rows.push({
    kind: kind.name,
    median: Math.round(median(latencies) * 10) / 10,
    max: Math.round(Math.max(...latencies) * 10) / 10,
    runs: latencies.length,
  });
  console.log(
    `${kind.name}: median ${median(latencies)} ms, max ${Math.max(...latencies)} ms (${latencies})`,
  );
}
await runtime.close();
await desktop?.stop();

const date = new Date().toISOString();
const jsonPath = `${root}bench/results.json`;
const all = JSON.parse(await Deno.readTextFile(jsonPath).catch(() => "{}"));
all.cancel = { date, runs_per_kind: RUNS, kinds: rows };
await Deno.writeTextFile(jsonPath, JSON.stringify(all, null, 2) + "\n");
const mdPath = `${root}bench/results.md`;
const md = (await Deno.readTextFile(mdPath).catch(() => "# Benchmark results\n")).replace(
  /\n## Cancellation[\s\S]*?(?=\n## |$)/,
  "",
);
await Deno.writeTextFile(
  mdPath,
  md.trimEnd() + `\n\n## Cancellation (\`deno run -A scripts/bench_cancel.ts\`, ${date})\n\n` +
    "From the abort to the fixture app's last journal entry caused by the input (the last character it " +
    "received, or the drag's button release); for a killed target, from the kill to the call returning " +
    `(the input lock is free again). 0 ms: nothing reached the app after the abort (typing keeps at most 16 ` +
    `characters queued ahead of it). ${RUNS} runs per kind.\n\n` +
    "| Abort | Median | Max | Target |\n| --- | --- | --- | --- |\n" +
    rows.map((r) => `| ${r.kind} | ${r.median} ms | ${r.max} ms | < 50 ms |`).join("\n") + "\n",
);
