/**
 * One driver configuration reached through every transport a user has: MCP over stdio
 * (`cua-driver mcp`, the official SDK client), and one daemon (`cua-driver serve`) reached
 * through MCP over streamable HTTP, gRPC `DriverService.CallTool` (a @grpc/grpc-js client
 * in Node) and its Unix socket (the DaemonClient `cua-driver call` uses; `cli()` runs the
 * real `cua-driver call` process, a few seconds each). Security tests run each attack
 * through all four and expect the same refusal from each.
 *
 * @module
 */
import { systemFor } from "../../src/backends/mod.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DaemonClient } from "../../src/transports/daemon/client.ts";
import { startDaemon } from "./daemon.ts";
import { driverArgs, driverEnv, runDriver } from "./driver.ts";
import { type GrpcNodeClient, startGrpcNodeClient } from "./grpc_node_client.ts";
import { freePort } from "./free_port.ts";

/** What every transport gives back for a call: the error flag and the structured content. */
export interface TransportResult {
  isError: boolean;
  structured: Record<string, unknown>;
}

/** One way in. */
export interface Transport {
  readonly name: "mcp-stdio" | "mcp-http" | "grpc" | "daemon";
  call(tool: string, args: Record<string, unknown>): Promise<TransportResult>;
}

/** The four transports over one configuration; dispose to stop every process. */
export interface AllTransports extends AsyncDisposable {
  readonly transports: readonly Transport[];
  /** The daemon's socket. */
  readonly socket: string;
  /** One call through a `cua-driver call` process (the daemon CLI). */
  cli(tool: string, args: Record<string, unknown>): Promise<TransportResult>;
  readonly env: Record<string, string>;
}

const TOKEN = "security-suite-token-0123456789abcdefghijklmnop";

function fromMcp(result: { isError?: unknown; structuredContent?: unknown }): TransportResult {
  return {
    isError: result.isError === true,
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
  };
}

/**
 * Starts the four transports with the same driver flags (`--permission-mode`, a manifest).
 *
 * @param flags Driver flags for both `mcp` and `serve`.
 */
export async function startAllTransports(flags: string[]): Promise<AllTransports> {
  const port = freePort();
  const env = driverEnv({ CUA_DRIVER_RS_MCP_HTTP_PORT: String(port), CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN });
  const serve = await startDaemon(flags, env);
  const socket = serve.socket;
  const stdioEnv = { ...env };
  delete stdioEnv.CUA_DRIVER_RS_MCP_HTTP_PORT;
  const stdio = new Client({ name: "cua-security", version: "1.0.0" });
  await stdio.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: driverArgs("mcp", "--desktop", "system", ...flags),
      env: stdioEnv,
      stderr: "ignore",
    }),
  );
  const http = new Client({ name: "cua-security-http", version: "1.0.0" });
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  await http.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
  const grpc: GrpcNodeClient = await startGrpcNodeClient(`127.0.0.1:${port}`, TOKEN);
  const daemon = await DaemonClient.connect((await systemFor()).sockets, socket);

  const transports: Transport[] = [
    {
      name: "mcp-stdio",
      call: async (tool, args) => fromMcp(await stdio.callTool({ name: tool, arguments: args })),
    },
    {
      name: "mcp-http",
      call: async (tool, args) => fromMcp(await http.callTool({ name: tool, arguments: args })),
    },
    {
      name: "grpc",
      async call(tool, args) {
        const answer = await grpc.call("DriverService", "CallTool", {
          name: tool,
          argumentsJson: JSON.stringify(args),
        });
        if (!answer.ok) {
          return { isError: true, structured: { code: `grpc:${answer.code}`, message: answer.message } };
        }
        return {
          isError: answer.response.isError === true,
          structured: JSON.parse(answer.response.structuredJson || "{}"),
        };
      },
    },
    {
      name: "daemon",
      call: async (tool, args) =>
        fromMcp(await daemon.call(tool, args, { lease: "security", transport: "daemon" })),
    },
  ];
  return {
    transports,
    socket,
    env,
    async cli(tool, args) {
      const run = await runDriver(["call", tool, JSON.stringify(args), "--socket", socket], { env });
      const text = run.code === 0 ? run.stdout : run.stderr;
      let structured: Record<string, unknown>;
      try {
        structured = JSON.parse(text);
      } catch {
        structured = { code: `cli-exit:${run.code}`, message: text };
      }
      return { isError: run.code !== 0, structured };
    },
    async [Symbol.asyncDispose]() {
      daemon.close();
      await stdio.close().catch(() => {});
      await http.close().catch(() => {});
      await grpc.close();
      await serve.stop();
    },
  };
}
