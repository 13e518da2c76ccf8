/**
 * MCP over streamable HTTP at /mcp (contract.md §5.6): JSON responses only, no SSE.
 * Checks in the reference's order: any Origin → 403; missing or wrong bearer token
 * → 401 and the connection closes; not POST → 405; then the body (at most 16 MiB)
 * goes through the same {@linkcode McpConnection} as stdio: 200 application/json,
 * 202 for a notification, -32700 for bad JSON. Each TCP connection is one lease.
 *
 * @module
 */
import type http from "node:http";
import type { Socket } from "node:net";
import type { ToolRegistry } from "../../core/registry.ts";
import { McpConnection } from "../mcp_protocol.ts";
import type { BearerAuth } from "./auth.ts";

/** Largest request body accepted. */
export const MAX_MCP_BODY_BYTES = 16 * 1024 * 1024;

/** Serves /mcp requests; one {@linkcode McpConnection} (lease) per TCP connection. */
export class McpHttpHandler {
  readonly #connections = new Map<Socket, McpConnection>();

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
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        return rpcFailure(res, 405, -32600, "Use POST /mcp with a JSON-RPC body");
      }
      const body = await readBody(req, MAX_MCP_BODY_BYTES);
      if (body === null) return rpcFailure(res, 413, -32600, "Request body larger than 16 MiB", true);
      const response = await this.#connection(req.socket).handleText(body);
      if (res.destroyed) return;
      if (response === null) {
        res.writeHead(202).end();
        return;
      }
      const json = JSON.stringify(response);
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) });
      res.end(json);
    } catch (error) {
      if (!res.headersSent) rpcFailure(res, 500, -32603, `Internal error: ${(error as Error).message}`);
      else res.destroy();
    }
  }

  /** Ends every connection's lease (server shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#connections.keys()].map((socket) => this.#end(socket)));
  }

  #connection(socket: Socket): McpConnection {
    let connection = this.#connections.get(socket);
    if (!connection) {
      connection = new McpConnection(this.registry, "mcp_http");
      this.#connections.set(socket, connection);
      socket.once("close", () => void this.#end(socket));
    }
    return connection;
  }

  async #end(socket: Socket): Promise<void> {
    const connection = this.#connections.get(socket);
    if (!connection) return;
    this.#connections.delete(socket);
    connection.abortAll();
    await this.registry.endLease(connection.lease).catch(() => {});
  }
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
