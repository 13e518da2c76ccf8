/**
 * `cua-driver serve`: one runtime behind a local socket (`SystemBackend.sockets`: a Unix
 * socket, mode 0600 inside a 0700 directory, or a named pipe), so only its owner can
 * connect. Every connection is a session lease; its end (EOF, a killed client) ends the
 * lease's sessions.
 *
 * @module
 */
import {
  CAPABILITY_VERSION,
  CONTRACT_VERSION,
  type ToolRegistry,
  TOOLS_LIST_SCHEMA_VERSION,
} from "../../kernel/registry.ts";
import { setServedSocket } from "../../kernel/daemon_probe.ts";
import type { LocalConnection, LocalSockets } from "../../ports/system.ts";
import { VERSION } from "../../version.ts";
import { MCP_PROTOCOL_VERSION } from "../mcp/server.ts";
import { DaemonExit, type DaemonRequest, type DaemonResponse, pidFileFor } from "./protocol.ts";
import { OversizedLine, readLines } from "../../lib/line_reader.ts";

/** A running daemon. */
export interface DaemonServer {
  readonly socketPath: string;
  /** Resolves when a `shutdown` request or {@linkcode close} stopped it. */
  readonly finished: Promise<void>;
  close(): Promise<void>;
}

/** Options for {@linkcode serveDaemon}. */
export interface DaemonOptions {
  socketPath: string;
  /** The OS's local endpoints (`SystemBackend.sockets`). */
  sockets: LocalSockets;
  /** Extra fields for `status` (permission mode, network listener). */
  status?: () => Record<string, unknown>;
}

/**
 * Starts serving.
 *
 * @throws {Error} when a daemon already answers on the socket.
 */
export async function serveDaemon(registry: ToolRegistry, options: DaemonOptions): Promise<DaemonServer> {
  const { socketPath } = options;
  // Only the driver's user can connect; a stale endpoint is replaced, a live daemon refuses.
  const listener = await options.sockets.listen(socketPath);
  const pidFile = options.sockets.pidFile?.(socketPath) ?? pidFileFor(socketPath);
  await Deno.writeTextFile(pidFile, `${Deno.pid}\n`);
  setServedSocket(socketPath);

  const connections = new Set<LocalConnection>();
  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  let closing: Promise<void> | null = null;
  const close = () =>
    closing ??= (async () => {
      listener.close();
      for (const conn of connections) {
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
      await Deno.remove(pidFile).catch(() => {});
      setServedSocket(null);
      resolveFinished();
    })();

  (async () => {
    for await (const conn of listener) {
      connections.add(conn);
      serveConnection(registry, conn, { ...options, shutdown: close }).finally(() =>
        connections.delete(conn)
      );
    }
  })().catch(() => {});

  return { socketPath, finished, close };
}

async function serveConnection(
  registry: ToolRegistry,
  conn: LocalConnection,
  options: DaemonOptions & { shutdown: () => Promise<void> },
): Promise<void> {
  const lease = `daemon-${crypto.randomUUID()}`;
  // Aborted when the client goes away: its calls stop their input.
  const gone = new AbortController();
  const encoder = new TextEncoder();
  const writer = conn.writable.getWriter();
  const inFlight = new Set<Promise<void>>();
  let writing = Promise.resolve();
  const send = (response: DaemonResponse) => {
    writing = writing.then(() => writer.write(encoder.encode(JSON.stringify(response) + "\n"))).catch(
      () => {},
    );
    return writing;
  };
  try {
    for await (const line of readLines(conn.readable)) {
      if (line instanceof OversizedLine) {
        await send({
          ok: false,
          code: "input_too_large",
          error:
            `A request line of at least ${line.bytes} bytes is over the ${line.limit}-byte limit; it was skipped`,
          exit_code: DaemonExit.badRequest,
        });
        continue;
      }
      let request: DaemonRequest;
      try {
        request = JSON.parse(line);
        if (typeof request !== "object" || request === null || typeof request.method !== "string") {
          throw new SyntaxError("a request needs a string method");
        }
      } catch (error) {
        await send({
          ok: false,
          error: `JSON parse error: ${(error as Error).message}`,
          exit_code: DaemonExit.badRequest,
        });
        continue;
      }
      const task = handle(registry, request, lease, { ...options, signal: gone.signal }).then((response) =>
        send({ id: request.id, ...response })
      );
      inFlight.add(task);
      task.finally(() => inFlight.delete(task));
    }
  } catch {
    // The client went away mid-stream (killed): fall through to cleanup.
  } finally {
    gone.abort();
    await Promise.allSettled([...inFlight]);
    await registry.endLease(lease);
    writer.releaseLock();
    try {
      conn.close();
    } catch {
      // Already closed.
    }
  }
}

async function handle(
  registry: ToolRegistry,
  request: DaemonRequest,
  lease: string,
  options: DaemonOptions & { shutdown: () => Promise<void>; signal?: AbortSignal },
): Promise<DaemonResponse> {
  switch (request.method) {
    case "metadata":
      return {
        ok: true,
        result: {
          driver_version: VERSION,
          contract_version: CONTRACT_VERSION,
          tools_list_schema_version: TOOLS_LIST_SCHEMA_VERSION,
          capability_version: CAPABILITY_VERSION,
          mcp_protocol_version: MCP_PROTOCOL_VERSION,
          pid: Deno.pid,
          socket: options.socketPath,
          permission_mode: registry.permissionMode,
          input: registry.state.inputStop.state,
          ...options.status?.(),
        },
      };
    case "list":
      return {
        ok: true,
        result: {
          tools: registry.list(),
          capability_version: CAPABILITY_VERSION,
          schema_version: TOOLS_LIST_SCHEMA_VERSION,
        },
      };
    case "describe": {
      const listing = typeof request.name === "string" ? registry.listing(request.name) : undefined;
      return listing
        ? {
          ok: true,
          result: { name: listing.name, description: listing.description, input_schema: listing.inputSchema },
        }
        : { ok: false, error: `Unknown tool: ${request.name}`, exit_code: DaemonExit.usage };
    }
    case "call": {
      if (typeof request.name !== "string") {
        return { ok: false, error: "call needs a tool name", exit_code: DaemonExit.usage };
      }
      const args = request.args === undefined ? {} : request.args;
      const withSession =
        request.session !== undefined && typeof args === "object" && args !== null && !Array.isArray(args)
          ? { session: request.session, ...args as Record<string, unknown> }
          : args;
      // Named one-shot CLI calls share one long-lived lease, so a label survives between processes.
      const callLease = request.client_kind === "cli" && request.session !== undefined
        ? "cli-explicit"
        : lease;
      const result = await registry.call(request.name, withSession, {
        lease: callLease,
        transport: request.client_kind === "cli" ? "cli" : "daemon",
        signal: options.signal,
      });
      return { ok: true, result };
    }
    case "session_begin":
      return { ok: true, result: { session_begin: true, lease } };
    case "session_end":
      await registry.endLease(lease);
      return { ok: true, result: { session_end: true } };
    case "sessions_list":
      return {
        ok: true,
        result: {
          sessions: registry.sessionSummaries(),
          count: registry.sessionSummaries().length,
        },
      };
    case "input_stop":
      // The person's stop switch (`cua-driver stop-input`); no tool can undo it.
      return { ok: true, result: await registry.stopInput("cli") };
    case "input_resume":
      return { ok: true, result: registry.resumeInput() };
    case "shutdown":
      setTimeout(() => void options.shutdown(), 10);
      return { ok: true, result: { shutdown: true } };
    default:
      return { ok: false, error: `Unknown method: ${request.method}`, exit_code: DaemonExit.badRequest };
  }
}
