/**
 * Fuzzes every tool through MCP over stdio, the way a confused or hostile model would:
 * arguments drawn from each tool's published schema and then bent (wrong types, missing
 * required fields, unknown keys, huge and negative numbers, long and odd strings, paths
 * to links, FIFOs and /proc), plus malformed JSON-RPC lines. A GTK3 fixture app gives the
 * calls real windows and processes to aim at. Counts what must never happen: an error
 * without a code of its own (`internal_error`, a JSON-RPC internal error, no envelope),
 * a call that does not answer within a minute, the driver exiting, the fixture frozen.
 *
 * Tools that reach outside the desktop (installers, update checks, browser start-up) get
 * only arguments their schema refuses, so the run never installs, downloads or starts a
 * browser. Processes: kill_app only ever names the fixture (foreign: refused) or pids that
 * do not exist; launch_app only programs that exit at once or that a guard refuses.
 *
 * Runs on the desktop named by DISPLAY, else on its own embedded desktop, and writes its
 * figures to bench/results.json and bench/results.md.
 *
 *     deno run -A scripts/fuzz_tools.ts [calls per tool, default 110] [seed, default 1]
 */
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { CACHED_ONLY, denoChildEnv } from "./deno_child.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const root = new URL("..", import.meta.url).pathname;
const PER_TOOL = Number(Deno.args[0] ?? 110);
let seed = Number(Deno.args[1] ?? 1);
const CALL_TIMEOUT_MS = 60_000;
/** Tools that would install, download or start a browser with valid arguments. */
const INVALID_ONLY = new Set(["install_ffmpeg", "install_extension", "check_for_update", "browser_prepare"]);

/** Mulberry32: a small seeded generator, so a failing run can be repeated. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const chance = (p: number) => random() < p;

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

// A sandbox of paths the fuzzer offers for every path-like field.
const sandbox = await Deno.makeTempDir({ prefix: "cua-fuzz-" });
await Deno.writeTextFile(`${sandbox}/outside.txt`, "outside\n");
await Deno.mkdir(`${sandbox}/grant`);
await Deno.symlink(`${sandbox}/outside.txt`, `${sandbox}/grant/link.png`);
await Deno.symlink("/etc", `${sandbox}/grant/etc`);
await new Deno.Command("mkfifo", { args: [`${sandbox}/grant/fifo.png`] }).output();
const PATHS = [
  `${sandbox}/grant/shot.png`,
  `${sandbox}/grant/link.png`,
  `${sandbox}/grant/etc/passwd`,
  `${sandbox}/grant/fifo.png`,
  `${sandbox}/grant/rec`,
  `${sandbox}/grant/../outside.txt`,
  "/proc/self/fd/1",
  "/dev/stdout",
  "/dev/zero",
  "relative/path.png",
  "",
];
const PROGRAMS = [
  "true",
  "/bin/false",
  "no-such-program",
  "/bin/sh -c 'touch /tmp/cua-fuzz-pwned'",
  "kill",
  "xterm",
];

let fixture = await startFixture(desktopEnv, { title: "Fuzz target", x: 40, y: 40 });

const STRINGS = () => [
  "",
  "a",
  "Fuzz target",
  "ctrl+alt+Delete",
  "super+F4",
  "Return",
  "\u0000\u0007\u001b[2J",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ عربى",
  "x".repeat(5000),
  "%s%n%x",
  "' OR 1=1 --",
  "${jndi:ldap://x}",
  "e0",
  "w1:e3",
  "s999999",
  "window",
  "desktop",
  "left",
  "https://example.invalid/",
  "-remote-debugging-port=9222",
  String(fixture.pid),
  ...PATHS,
];
const NUMBERS =
  () => [0, 1, -1, 2, 3, 10, 100, 0.5, 1e9, -1e9, 2 ** 31, 2 ** 53, fixture.pid, fixture.xid, 40, 120];

/** One value for `schema`: mostly valid, sometimes bent. */
function valueFor(schema: Json, key: string, depth: number): unknown {
  if (!schema || typeof schema !== "object") return pick(STRINGS());
  if ("const" in schema) return schema.const;
  if (schema.enum) return pick(schema.enum);
  if (schema.anyOf || schema.oneOf) return valueFor(pick(schema.anyOf ?? schema.oneOf), key, depth);
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  if (key === "pid") return pick([fixture.pid, fixture.pid, 999_999, 1, Deno.pid]);
  if (key === "window_id") return pick([fixture.xid, fixture.xid, 1, 0x7fffffff]);
  switch (type) {
    case "integer":
    case "number": {
      // Mostly within the schema's bounds, sometimes anywhere.
      if (chance(0.2)) return type === "integer" ? Math.trunc(pick(NUMBERS())) : pick(NUMBERS());
      const low = schema.minimum ?? schema.exclusiveMinimum ?? 0;
      const high = Math.min(schema.maximum ?? schema.exclusiveMaximum ?? low + 400, low + 400);
      const value = low + random() * (high - low);
      return type === "integer" ? Math.round(value) : Math.round(value * 10) / 10;
    }
    case "boolean":
      return chance(0.5);
    case "string": {
      let text = /path|file|dir|folder|output/.test(key)
        ? pick(PATHS)
        : /name|launch|url/.test(key)
        ? pick([...PROGRAMS, ...STRINGS()])
        : pick(STRINGS());
      if (chance(0.85)) {
        if (schema.maxLength !== undefined) text = text.slice(0, schema.maxLength);
        if (schema.minLength !== undefined) text = text.padEnd(schema.minLength, "a");
      }
      return text;
    }
    case "array": {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? min + 3, min + 3);
      const length = chance(0.05) ? 300 : min + Math.floor(random() * (max - min + 1));
      return Array.from({ length }, () => depth > 3 ? 1 : valueFor(schema.items, key, depth + 1));
    }
    case "object":
      return argsFor(schema, depth + 1);
    default:
      return pick([...STRINGS(), ...NUMBERS(), null, true, {}, []]);
  }
}

function wrongType(schema: Json): unknown {
  const candidates: unknown[] = [null, "7", 7, -3.5, true, [], {}, [1, "a"], { x: 1 }, "x".repeat(100_000)];
  const typeName = (v: unknown) => Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
  const expected = schema.type === "integer" ? "number" : String(schema.type);
  return pick(candidates.filter((v) => typeName(v) !== expected));
}

/** Arguments for an object schema: required fields mostly present, optional ones sometimes. */
function argsFor(schema: Json, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set<string>(schema?.required ?? []);
  for (const [key, property] of Object.entries<Json>(schema?.properties ?? {})) {
    if (key === "session") {
      if (required.has(key) || chance(0.1)) out.session = chance(0.8) ? "fuzz" : pick(["", "x".repeat(300)]);
      continue;
    }
    const include = required.has(key) ? chance(0.95) : chance(0.35);
    if (include) out[key] = valueFor(property, key, depth);
  }
  return out;
}

/** Bends one thing in a third of the calls: a field of the wrong type, a required field left out, an unknown key. */
function bend(args: Record<string, unknown>, schema: Json): Record<string, unknown> {
  if (!chance(0.33)) return args;
  const keys = Object.keys(schema?.properties ?? {});
  const how = random();
  if (how < 0.4 && keys.length) {
    const key = pick(keys);
    args[key] = wrongType(schema.properties[key]);
  } else if (how < 0.7 && schema?.required?.length) {
    delete args[pick(schema.required as string[])];
  } else {
    args[pick(["__proto__", "constructor", "unknown_key", "_meta"])] = { polluted: true };
  }
  return args;
}

/** Arguments the tool's schema refuses (wrong type for a field, or an unknown key). */
function invalidArgsFor(schema: Json): unknown {
  const keys = Object.keys(schema?.properties ?? {});
  if (keys.length && chance(0.6)) return { [pick(keys)]: { nested: [null] } };
  return pick([{ definitely_not_a_field: 1 }, [], "string", 7]);
}

// The driver, spoken to one JSON-RPC line at a time.
const driver = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--quiet", ...CACHED_ONLY, `${root}src/main.ts`, "mcp", "--desktop", "system"],
  env: {
    ...desktopEnv,
    ...denoChildEnv(),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    CUA_DRIVER_CONFIG_DIR: `${sandbox}/config`,
  },
  clearEnv: true,
  cwd: sandbox,
  stdin: "piped",
  stdout: "piped",
  stderr: "piped",
}).spawn();
const writer = driver.stdin.getWriter();
const stderrText = new Response(driver.stderr).text();
const waiters = new Map<number, (response: Json) => void>();
const stray: Json[] = [];
let exited = false;
driver.status.then(() => (exited = true));
(async () => {
  let buffer = "";
  for await (const chunk of driver.stdout.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const response = JSON.parse(line);
      const waiter = waiters.get(response.id);
      if (waiter) waiter(response);
      else stray.push(response);
    }
  }
})();

let nextId = 0;
async function send(message: unknown, timeoutMs = CALL_TIMEOUT_MS): Promise<Json | "hang"> {
  const id = ++nextId;
  const line = JSON.stringify({ ...(message as object), jsonrpc: "2.0", id });
  const answer = new Promise<Json>((resolve) => waiters.set(id, resolve));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"hang">((resolve) => (timer = setTimeout(() => resolve("hang"), timeoutMs)));
  await writer.write(new TextEncoder().encode(line + "\n"));
  const result = await Promise.race([answer, timeout]);
  clearTimeout(timer);
  waiters.delete(id);
  return result;
}

const rss = () => {
  const status = Deno.readTextFileSync(`/proc/${driver.pid}/status`);
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

await send({
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "0" } },
});
await writer.write(
  new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n"),
);
const tools: Json[] = (await send({ method: "tools/list" })).result.tools;
const rssStart = rss();

const codes = new Map<string, number>();
const uncoded: string[] = [];
const hangs: string[] = [];
const latencies: number[] = [];
let calls = 0, succeeded = 0, fixtureRestarts = 0;
const started = performance.now();

for (let round = 0; round < PER_TOOL && !exited; round++) {
  for (const tool of tools) {
    if (exited) break;
    const args = INVALID_ONLY.has(tool.name) || chance(0.05)
      ? invalidArgsFor(tool.inputSchema)
      : bend(argsFor(tool.inputSchema), tool.inputSchema);
    const t0 = performance.now();
    const response = await send({ method: "tools/call", params: { name: tool.name, arguments: args } });
    latencies.push(performance.now() - t0);
    calls++;
    const shown = `${tool.name} ${JSON.stringify(args).slice(0, 200)}`;
    if (response === "hang") {
      hangs.push(shown);
      continue;
    }
    const result = response.result;
    const code = response.error
      ? `jsonrpc ${response.error.code}`
      : result?.isError
      ? result.structuredContent?.code
      : null;
    if (response.error?.code === -32603 || (result?.isError && (!code || code === "internal_error"))) {
      uncoded.push(`${shown} -> ${JSON.stringify(response).slice(0, 300)}`);
    }
    if (!code) succeeded++;
    else codes.set(code, (codes.get(code) ?? 0) + 1);
    if (code && Deno.env.get("FUZZ_VERBOSE")) {
      console.log(`${shown} -> ${code}: ${result?.structuredContent?.message}`);
    }
    if (INVALID_ONLY.has(tool.name) && !result?.isError && !response.error) {
      uncoded.push(`${shown} -> accepted arguments its schema refuses`);
    }
    if (calls % 50 === 0) {
      // The fixture may have been closed by a fuzzed key or killed; the run goes on with a new one.
      const alive = await Promise.race([
        fixture.status.then(() => false),
        new Promise((r) => setTimeout(() => r(true), 0)),
      ]);
      if (!alive) {
        fixtureRestarts++;
        fixture = await startFixture(desktopEnv, { title: "Fuzz target", x: 40, y: 40 });
      }
    }
  }
  console.log(
    `round ${
      round + 1
    }/${PER_TOOL}: ${calls} calls, ${uncoded.length} uncoded, ${hangs.length} hangs, RSS ${rss()} MB`,
  );
}

// Malformed protocol lines: each gets a JSON-RPC error, and the server keeps serving.
const MALFORMED = [
  "{",
  "[]",
  "null",
  '"text"',
  '{"jsonrpc":"1.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"' + "n".repeat(10_000) + '"}}',
  '{"jsonrpc":"2.0","id":1,"method":"no/such"}',
  "\u0000".repeat(100),
  "x".repeat(1_000_000),
];
let protocolAnswered = 0;
for (const line of MALFORMED) {
  if (exited) break;
  const before = stray.length;
  await writer.write(new TextEncoder().encode(line + "\n"));
  const ping = await send({ method: "ping" }, 10_000);
  if (ping !== "hang" && ping.result && stray.length > before) protocolAnswered++;
}
const seconds = (performance.now() - started) / 1000;
const exitedEarly = exited;
const rssEnd = exited ? 0 : rss();
const fixtureAlive = await Promise.race([
  fixture.status.then(() => false),
  new Promise((r) => setTimeout(() => r(true), 0)),
]);
await writer.close().catch(() => {});
const status = await Promise.race([
  driver.status,
  new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
]);
if (status === null) driver.kill("SIGKILL");
await fixture.stop();
await desktop?.stop();
const log = await stderrText;
await Deno.remove(sandbox, { recursive: true }).catch(() => {});

const sorted = [...latencies].sort((a, b) => a - b);
const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]?.toFixed(1);
const topCodes = [...codes].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([c, n]) => `${c} ${n}`).join(", ");
console.log(
  `${calls} calls over ${tools.length} tools in ${
    seconds.toFixed(0)
  } s; ${succeeded} succeeded; codes: ${topCodes}`,
);
console.log(`uncoded ${uncoded.length}, hangs ${hangs.length}, driver exited early: ${exitedEarly}`);
for (const line of [...uncoded, ...hangs].slice(0, 20)) console.log(`  ${line}`);
if (/internal_error|Uncaught|panic/i.test(log)) console.log(`driver stderr:\n${log.slice(-3000)}`);

const date = new Date().toISOString();
const figures = {
  date,
  seed: Number(Deno.args[1] ?? 1),
  tools: tools.length,
  calls,
  succeeded,
  uncoded: uncoded.length,
  hangs: hangs.length,
  driver_survived: !exitedEarly,
  fixture_restarts: fixtureRestarts,
  fixture_alive_at_end: fixtureAlive,
  malformed_lines_answered: `${protocolAnswered}/${MALFORMED.length}`,
  p50_ms: Number(p(0.5)),
  p99_ms: Number(p(0.99)),
  rss_mb: { start: rssStart, end: rssEnd },
  seconds: Math.round(seconds),
  load: Deno.loadavg().map((v) => v.toFixed(2)).join(" "),
};
const jsonPath = `${root}bench/results.json`;
const all = JSON.parse(await Deno.readTextFile(jsonPath).catch(() => "{}"));
all.fuzz = figures;
await Deno.writeTextFile(jsonPath, JSON.stringify(all, null, 2) + "\n");
const mdPath = `${root}bench/results.md`;
const md = (await Deno.readTextFile(mdPath).catch(() => "# Benchmark results\n")).replace(
  /\n## Fuzz[\s\S]*?(?=\n## |$)/,
  "",
);
await Deno.writeTextFile(
  mdPath,
  md.trimEnd() +
    `\n\n## Fuzz (\`deno run -A scripts/fuzz_tools.ts ${PER_TOOL} ${figures.seed}\`, ${date})\n\n` +
    "Every tool through MCP stdio with schema-derived and bent arguments, then malformed JSON-RPC lines. " +
    "Uncoded: an error without a code of its own (internal_error, JSON-RPC internal error). Hang: no answer " +
    "in 60 s.\n\n| Figure | Value |\n| --- | --- |\n" +
    `| Calls (tools) | ${calls} (${tools.length}) |\n| Succeeded / refused with a code | ${succeeded} / ${
      calls - succeeded
    } |\n| Most frequent codes | ${topCodes} |\n| Uncoded errors | ${uncoded.length} |\n| Hangs | ${hangs.length} |\n` +
    `| Driver alive at the end | ${figures.driver_survived} |\n| Fixture restarts (closed by fuzzed keys) | ${fixtureRestarts} |\n` +
    `| Malformed lines answered, server still serving | ${figures.malformed_lines_answered} |\n` +
    `| Latency p50 / p99 | ${figures.p50_ms} / ${figures.p99_ms} ms |\n| Driver RSS start / end | ${rssStart} / ${rssEnd} MB |\n` +
    `| Duration | ${figures.seconds} s (load average ${figures.load}) |\n`,
);
Deno.exit(uncoded.length || hangs.length || !figures.driver_survived ? 1 : 0);
