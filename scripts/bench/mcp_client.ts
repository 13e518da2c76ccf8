/**
 * The benchmarks' MCP client: a driver subprocess serving MCP on stdio, as agents run it.
 * `call` returns the reply and its round-trip time; `cpuMs` reads the driver's CPU time.
 * `BENCH_DENO_FLAGS` adds Deno flags to the driver's command line (e.g. `--cpu-prof-md`).
 *
 * @module
 */

import { CACHED_ONLY, LAZY_IMPORTS, V8_FLAGS } from "../deno_child.ts";

const root = new URL("../..", import.meta.url).pathname;

/** An open driver. */
export interface McpDriver {
  /** The driver process id. */
  pid: number;
  /** Calls a tool; throws on an error reply. */
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ ms: number; structured: Record<string, unknown> }>;
  /** User + system CPU time of the driver process so far (all threads), in ms. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/**
 * CPU time of process `pid` so far, in ms: its live threads' time on CPU from
 * `/proc/<pid>/task/<tid>/schedstat` (nanoseconds; /proc/<pid>/stat counts 10 ms ticks).
 */
export async function processCpuMs(pid: number): Promise<number> {
  let ns = 0;
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    try {
      ns += Number((await Deno.readTextFile(`/proc/${pid}/task/${task.name}/schedstat`)).split(" ")[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ns / 1e6;
}

/** Starts `src/main.ts mcp` with `env`, as bin/cua-driver runs it, and completes the MCP handshake. */
export async function openMcp(env: Record<string, string>, extraArgs: string[] = []): Promise<McpDriver> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      ...LAZY_IMPORTS,
      ...V8_FLAGS,
      ...CACHED_ONLY,
      ...(Deno.env.get("BENCH_DENO_FLAGS")?.split(" ").filter(Boolean) ?? []),
      `${root}src/main.ts`,
      "mcp",
      "--desktop",
      "system",
      ...extraArgs,
    ],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let id = 0;
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
  const request = async (method: string, params: unknown) => {
    const started = performance.now();
    await writer.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }) + "\n"),
    );
    const reply = JSON.parse(await next());
    return { ms: performance.now() - started, reply };
  };
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "0" },
  });
  return {
    pid: child.pid,
    async call(name: string, args: Record<string, unknown>) {
      const { ms, reply } = await request("tools/call", { name, arguments: args });
      if (reply.error || reply.result?.isError) {
        throw new Error(`${name}: ${JSON.stringify(reply).slice(0, 300)}`);
      }
      return { ms, structured: reply.result.structuredContent as Record<string, unknown> };
    },
    cpuMs: () => processCpuMs(child.pid),
    async close() {
      await writer.close();
      await child.status;
      reader.releaseLock();
    },
  };
}
