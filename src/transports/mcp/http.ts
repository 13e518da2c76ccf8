/**
 * MCP over streamable HTTP at /mcp (contract.md §5.6), served by the SDK's `Server`
 * (mcp_server.ts). Sessions follow the MCP transport specification: the response to an
 * `initialize` carries an `Mcp-Session-Id`; a request carrying one is served by that session's
 * server and lease whatever TCP connection it arrives on (so two clients sharing a token, or a
 * connection pool, never share named sessions), an unknown or ended id is 404, and DELETE with
 * the id ends the session. A request without an id (a client that never initialized) is
 * served per TCP connection, as before sessions existed. Checks in the reference's order: any
 * Origin → 403; missing or wrong bearer token → 401 and the connection closes; not POST or
 * DELETE → 405; then the body (at most 16 MiB): 200 application/json with the response, 202
 * for a notification, -32700 for bad JSON. A request that carries a progress token from a
 * client accepting `text/event-stream` is answered as an event stream: its progress
 * notifications, then the response.
 *
 * @module
 */
import type http from "node:http";
import type { Socket } from "node:net";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../../kernel/registry.ts";
import { createMcpConnection, parseMessage } from "./server.ts";
import type { BearerAuth } from "../network/auth.ts";

/** Largest request body accepted. */
export const MAX_MCP_BODY_BYTES = 16 * 1024 * 1024;
/** Sessions kept at once; initializing one more ends the least recently used. */
export const MAX_MCP_SESSIONS = 256;
/** The session header of the MCP streamable HTTP transport. */
const SESSION_HEADER = "mcp-session-id";

type Id = string | number;

/** Where the answer to one request goes: a JSON body, or an event stream that also carries its notifications. */
interface Pending {
  respond(message: JSONRPCMessage): void;
  notify?(message: JSONRPCMessage): void;
  /** The connection closed first: nothing will answer. */
  abandon(): void;
}

/** The SDK transport of one TCP connection: each request body in, its response out. */
class ConnectionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #pending = new Map<Id, Pending>();

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage, options?: { relatedRequestId?: Id }): Promise<void> {
    if (("result" in message || "error" in message) && message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      pending?.respond(message);
    } else if (options?.relatedRequestId !== undefined) {
      this.#pending.get(options.relatedRequestId)?.notify?.(message);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const pending of this.#pending.values()) pending.abandon();
    this.#pending.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  /** Hands a message to the server; a request's answer goes to `pending`. */
  deliver(message: JSONRPCMessage, pending: Pending | null): void {
    if (pending && "method" in message && "id" in message) this.#pending.set(message.id, pending);
    this.onmessage?.(message);
  }
}

interface Connection {
  transport: ConnectionTransport;
  lease: string;
}

/** Serves /mcp requests; one MCP server (lease) per session, or per TCP connection without one. */
export class McpHttpHandler {
  readonly #connections = new Map<Socket, Connection>();
  /** Sessions by Mcp-Session-Id, least recently used first. */
  readonly #sessions = new Map<string, Connection>();

  constructor(readonly registry: ToolRegistry, readonly auth: BearerAuth) {}

  /** Handles one request. Never throws. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      if (req.headers.origin !== undefined) {
        return rpcFailure(res, 403, -32600, "Browser-origin requests are forbidden");
      }
      if (!this.auth.check(req.headers.authorization)) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="cua-driver"');
        res.shouldKeepAlive = false;
        return rpcFailure(res, 401, -32001, "Authentication required", true);
      }
      const sessionId = req.headers[SESSION_HEADER];
      if (typeof sessionId === "string" && !this.#sessions.has(sessionId)) {
        return rpcFailure(res, 404, -32600, "Unknown or ended MCP session: initialize a new one");
      }
      if (req.method === "DELETE" && typeof sessionId === "string") {
        await this.#endSession(sessionId);
        res.writeHead(200).end();
        return;
      }
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST, DELETE");
        return rpcFailure(res, 405, -32600, "Use POST /mcp with a JSON-RPC body");
      }
      const body = await readBody(req, MAX_MCP_BODY_BYTES);
      if (body === null) return rpcFailure(res, 413, -32600, "Request body larger than 16 MiB", true);
      const parsed = parseMessage(body);
      if (parsed !== null && "reply" in parsed) return json(res, 200, parsed.reply);
      const message = parsed?.message;
      const initialize = message !== undefined && "method" in message && message.method === "initialize";
      let transport: ConnectionTransport;
      if (typeof sessionId === "string") {
        const session = this.#sessions.get(sessionId)!;
        // Most recently used last.
        this.#sessions.delete(sessionId);
        this.#sessions.set(sessionId, session);
        transport = session.transport;
      } else if (initialize) {
        const id = crypto.randomUUID();
        transport = (await this.#newSession(id)).transport;
        res.setHeader("Mcp-Session-Id", id);
      } else {
        transport = (await this.#connection(req.socket)).transport;
      }
      if (!message || !("method" in message) || !("id" in message)) {
        if (message) transport.deliver(message, null);
        res.writeHead(202).end();
        return;
      }
      const token = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta
        ?.progressToken;
      const stream = token !== undefined && String(req.headers.accept ?? "").includes("text/event-stream");
      await new Promise<void>((resolve) => {
        const event = (m: JSONRPCMessage) => res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
        transport.deliver(message, {
          respond(answer) {
            if (res.headersSent) event(answer), res.end();
            else json(res, 200, JSON.stringify(answer));
            resolve();
          },
          notify: stream
            ? (notification) => {
              if (!res.headersSent) {
                res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
              }
              event(notification);
            }
            : undefined,
          abandon() {
            res.destroy();
            resolve();
          },
        });
      });
    } catch (error) {
      if (!res.headersSent) rpcFailure(res, 500, -32603, `Internal error: ${(error as Error).message}`);
      else res.destroy();
    }
  }

  /** Ends every connection's and session's lease (server shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([
      ...[...this.#connections.keys()].map((socket) => this.#end(socket)),
      ...[...this.#sessions.keys()].map((id) => this.#endSession(id)),
    ]);
  }

  async #newSession(id: string): Promise<Connection> {
    while (this.#sessions.size >= MAX_MCP_SESSIONS) {
      await this.#endSession(this.#sessions.keys().next().value!);
    }
    const transport = new ConnectionTransport();
    const mcp = createMcpConnection(this.registry, "mcp_http");
    const session = { transport, lease: mcp.lease };
    this.#sessions.set(id, session);
    await mcp.connect(transport);
    return session;
  }

  async #endSession(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    await session.transport.close();
    await this.registry.endLease(session.lease).catch(() => {});
  }

  async #connection(socket: Socket): Promise<Connection> {
    let connection = this.#connections.get(socket);
    if (!connection) {
      const transport = new ConnectionTransport();
      const mcp = createMcpConnection(this.registry, "mcp_http");
      connection = { transport, lease: mcp.lease };
      this.#connections.set(socket, connection);
      socket.once("close", () => void this.#end(socket));
      await mcp.connect(transport);
    }
    return connection;
  }

  async #end(socket: Socket): Promise<void> {
    const connection = this.#connections.get(socket);
    if (!connection) return;
    this.#connections.delete(socket);
    // Closing aborts the calls still running on this connection.
    await connection.transport.close();
    await this.registry.endLease(connection.lease).catch(() => {});
  }
}

function json(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** Reads a request body as UTF-8; null when it exceeds `limit` bytes. */
async function readBody(req: http.IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Uint8Array).byteLength;
    if (size > limit) return null;
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes a JSON-RPC error with `id: null` and an HTTP status. */
export function rpcFailure(
  res: http.ServerResponse,
  status: number,
  code: number,
  message: string,
  close = false,
) {
  const json = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  const headers: Record<string, string | number> = {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
  };
  if (close) headers.Connection = "close";
  res.writeHead(status, headers);
  res.end(json);
  if (close) res.once("finish", () => res.socket?.destroySoon?.());
}
