/**
 * MCP over JSON-RPC 2.0, transport-neutral: one connection object turns each
 * incoming message into at most one response. stdio and HTTP both use it.
 *
 * Protocol errors (bad JSON, unknown method, missing params) are JSON-RPC
 * errors; tool failures are successful responses whose result has `isError`.
 *
 * @module
 */
import { CAPABILITY_VERSION, type ToolHost, TOOLS_LIST_SCHEMA_VERSION } from "../core/registry.ts";
import type { TransportKind } from "../core/session.ts";
import { SHARED_PARAMETERS } from "../core/tool_listing.ts";
import { VERSION } from "../version.ts";

/** The protocol version the server always answers with. */
export const MCP_PROTOCOL_VERSION = "2025-06-18";

/** A JSON-RPC response. */
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: string | number | null; result: unknown }
  | { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/** JSON-RPC error codes. */
export const RpcError = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

const INSTRUCTIONS = "cua-driver drives a real desktop. Observe with get_window_state(pid, window_id): the " +
  "accessibility tree (AT-SPI on Linux) and a screenshot in one call; act on one exact target per call, by " +
  'element_token first, then by pixel from the same screenshot, then delivery_mode:"foreground". Every ' +
  "action reports effect (confirmed/unverifiable/suspected_noop), route and escalation: observe again after " +
  "anything short of confirmed. Refusals carry a code and a hint; stale_element_token means snapshot again. " +
  "Background input uses a private pointer and keyboard that never move yours and is refused where another " +
  "window covers the point (then use delivery_mode foreground). " + SHARED_PARAMETERS;

/** One MCP connection: its lease, its in-flight calls, and the dispatch. */
export class McpConnection {
  readonly lease: string;
  readonly #inFlight = new Map<string | number, AbortController>();
  #clientName = "";

  constructor(
    readonly registry: ToolHost,
    readonly transport: TransportKind,
    lease?: string,
  ) {
    this.lease = lease ?? `${transport === "mcp_http" ? "http" : "mcp"}-${crypto.randomUUID()}`;
  }

  /** The client's self-reported name from initialize. */
  get clientName(): string {
    return this.#clientName;
  }

  /** Handles one raw message (a line or a request body). Returns null for notifications. */
  async handleText(text: string): Promise<JsonRpcResponse | null> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return errorResponse(null, RpcError.ParseError, "Parse error");
    }
    return await this.handle(message);
  }

  /** Handles one parsed message. */
  async handle(message: unknown): Promise<JsonRpcResponse | null> {
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return errorResponse(null, RpcError.InvalidRequest, "Invalid Request: expected a JSON-RPC object");
    }
    const { jsonrpc, id, method, params } = message as {
      jsonrpc?: unknown;
      id?: unknown;
      method?: unknown;
      params?: unknown;
    };
    const isNotification = id === undefined;
    const validId = typeof id === "string" || typeof id === "number" ? id : null;
    if (jsonrpc !== "2.0") {
      // JSON-RPC 2.0 §4: anything else is not a request this server understands.
      if (isNotification) return null;
      return errorResponse(validId, RpcError.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
    }
    if (typeof method !== "string") {
      if (isNotification) return null; // A response from the client; nothing to answer.
      return errorResponse(validId, RpcError.InvalidRequest, "Invalid Request: missing method");
    }
    if (isNotification) {
      this.#notification(method, params);
      return null;
    }
    if (validId === null) {
      return errorResponse(null, RpcError.InvalidRequest, "Invalid Request: id must be a string or number");
    }
    try {
      return await this.#request(validId, method, params);
    } catch (error) {
      return errorResponse(validId, RpcError.InternalError, `Internal error: ${(error as Error).message}`);
    }
  }

  /** Aborts every call in flight (the connection closed). */
  abortAll(): void {
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#inFlight.clear();
  }

  #notification(method: string, params: unknown): void {
    if (method === "notifications/cancelled") {
      const requestId = (params as { requestId?: string | number } | undefined)?.requestId;
      if (requestId !== undefined) this.#inFlight.get(requestId)?.abort();
    }
  }

  async #request(id: string | number, method: string, params: unknown): Promise<JsonRpcResponse> {
    switch (method) {
      case "initialize": {
        const info = (params as { clientInfo?: { name?: unknown } } | undefined)?.clientInfo;
        if (typeof info?.name === "string") this.#clientName = info.name.slice(0, 128);
        return {
          jsonrpc: "2.0",
          id,
          result: {
            protocolVersion: MCP_PROTOCOL_VERSION,
            capabilities: { tools: { listChanged: false } },
            serverInfo: { name: "cua-driver", version: VERSION },
            instructions: INSTRUCTIONS,
          },
        };
      }
      case "ping":
        return { jsonrpc: "2.0", id, result: {} };
      case "tools/list":
        return {
          jsonrpc: "2.0",
          id,
          result: {
            tools: await this.registry.list(),
            capability_version: CAPABILITY_VERSION,
            schema_version: TOOLS_LIST_SCHEMA_VERSION,
          },
        };
      case "tools/call":
        return await this.#callTool(id, params);
      default:
        return errorResponse(id, RpcError.MethodNotFound, `Unknown method: ${method}`);
    }
  }

  async #callTool(id: string | number, params: unknown): Promise<JsonRpcResponse> {
    if (typeof params !== "object" || params === null) {
      return errorResponse(id, RpcError.InvalidParams, "Invalid params: missing params");
    }
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string" || name === "") {
      return errorResponse(id, RpcError.InvalidParams, "Invalid params: missing tool name");
    }
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    try {
      const result = await this.registry.call(name, args ?? {}, {
        lease: this.lease,
        transport: this.transport,
        signal: controller.signal,
      });
      return { jsonrpc: "2.0", id, result };
    } finally {
      this.#inFlight.delete(id);
    }
  }
}

/** Builds a JSON-RPC error response. */
export function errorResponse(id: string | number | null, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
