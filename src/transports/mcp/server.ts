/**
 * MCP on the SDK's `Server` class, over any tool host (the registry, or a daemon client):
 * tools/list and tools/call are the host's list and call; the SDK does initialize (version
 * negotiation), ping, cancellation (`notifications/cancelled` aborts the call's signal, and
 * no response is sent) and request validation. One server per connection: its lease is
 * the connection's, and its close aborts every call still running.
 *
 * Protocol errors (bad JSON, unknown method, invalid params) are JSON-RPC errors; tool
 * failures are results with `isError`.
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  PingRequestSchema,
  type ProgressNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { CAPABILITY_VERSION, type ToolHost, TOOLS_LIST_SCHEMA_VERSION } from "../../kernel/registry.ts";
import type { ProgressReport } from "../../kernel/tool.ts";
import type { TransportKind } from "../../kernel/session.ts";
import { isVocabularyProfile, SHARED_PARAMETERS } from "../../kernel/tool_listing.ts";
import { VERSION } from "../../version.ts";

/** Protocol versions this server speaks; the first is answered to a client asking for another one. */
export const MCP_PROTOCOL_VERSIONS = ["2025-06-18", "2025-11-25"] as const;
/** The version a client asking for one the server does not speak gets. */
export const MCP_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];

/** Where non-object tools/call arguments travel past the SDK's validation (see `negotiating`). */
const RAW_ARGUMENTS = "cua-driver/raw-arguments";

/** A call with a progress token hears from the server at least this often while it runs. */
export const PROGRESS_INTERVAL_MS = 1_000;

/** JSON-RPC error codes. */
export const RpcError = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

const INSTRUCTIONS = "cua-driver drives a real desktop. Observe with get_window_state(pid, window_id): the " +
  "accessibility tree and a screenshot in one call; act on one exact target per call, by " +
  'element_token first, then by pixel from the same screenshot, then delivery_mode:"foreground". Every ' +
  "action reports effect (confirmed/unverifiable/suspected_noop), route and escalation: observe again after " +
  "anything short of confirmed. Refusals carry a code and a hint; stale_element_token means snapshot again. " +
  "Background input uses a private pointer and keyboard that never move yours and is refused where another " +
  "window covers the point (then use delivery_mode foreground). " + SHARED_PARAMETERS;

/** The instructions of a registry serving a vendor's vocabulary instead of the driver's own tools. */
const VOCABULARY_INSTRUCTIONS = "cua-driver drives a real desktop with a model vendor's computer tools. " +
  "Coordinates are pixels of the screenshot these tools return (one size for the whole session); points " +
  "outside it are errors, never clamped. Each action answers what it read back from the app " +
  "(Effect: confirmed, or unverifiable: take a screenshot to check).";

/** What the SDK hands a request handler besides the request (the part used here). */
interface CallExtra {
  signal: AbortSignal;
  sendNotification(notification: ProgressNotification): Promise<void>;
}

/** One MCP connection's server. */
export interface McpConnection {
  readonly server: Server;
  /** The connection's lease: its sessions end when the connection closes. */
  readonly lease: string;
  /** Connects the server to its transport (after any message shims are in place). */
  connect(transport: Transport): Promise<void>;
  /** Aborts every call still running (the client is gone: input stops, held input is released). */
  abortAll(): void;
}

/** Builds the SDK server for one connection over `host`. */
export function createMcpConnection(host: ToolHost, transport: TransportKind, lease?: string): McpConnection {
  const connectionLease = lease ?? `${transport === "mcp_http" ? "http" : "mcp"}-${crypto.randomUUID()}`;
  const ended = new AbortController();
  const server = new Server(
    { name: "cua-driver", version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: isVocabularyProfile(host.profile) ? VOCABULARY_INSTRUCTIONS : INSTRUCTIONS,
    },
  );
  // Matches the reference's wording for an unknown method (contract.md §5.5).
  server.fallbackRequestHandler = (request: { method: string }) =>
    Promise.reject(
      Object.assign(new Error(`Unknown method: ${request.method}`), { code: RpcError.MethodNotFound }),
    );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await host.list(),
    capability_version: CAPABILITY_VERSION,
    schema_version: TOOLS_LIST_SCHEMA_VERSION,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request: CallToolRequest, extra: CallExtra) => {
    const token = request.params._meta?.progressToken;
    const progress = token === undefined
      ? null
      : new ProgressSender(request.params.name, (params) =>
        extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, ...params },
        }));
    try {
      const meta = request.params._meta as Record<string, unknown> | undefined;
      const args = meta && RAW_ARGUMENTS in meta ? meta[RAW_ARGUMENTS] : request.params.arguments ?? {};
      return await host.call(request.params.name, args, {
        lease: connectionLease,
        transport,
        signal: AbortSignal.any([extra.signal, ended.signal]),
        onProgress: progress ? (report) => progress.report(report) : undefined,
      }) as CallToolResult;
    } finally {
      progress?.stop();
    }
  });
  return {
    server,
    lease: connectionLease,
    connect: (t) => server.connect(negotiating(t)),
    abortAll: () => ended.abort(new Error("The MCP client closed the connection")),
  };
}

/**
 * Progress notifications of one call: what the tool reports, and a heartbeat at least every
 * {@linkcode PROGRESS_INTERVAL_MS} so a client resetting its timeout on progress never gives
 * up on a long call. Progress values only grow, as the specification asks.
 */
class ProgressSender {
  readonly #started = performance.now();
  readonly #timer: ReturnType<typeof setInterval>;
  #last = 0;
  #lastSentAt = performance.now();

  constructor(
    readonly tool: string,
    readonly send: (params: Omit<ProgressNotification["params"], "progressToken">) => Promise<void>,
  ) {
    this.#timer = setInterval(() => {
      if (performance.now() - this.#lastSentAt < PROGRESS_INTERVAL_MS) return;
      const seconds = Math.round((performance.now() - this.#started) / 1000);
      this.report({ message: `${tool} still running (${seconds} s)` });
    }, PROGRESS_INTERVAL_MS / 4);
  }

  report(report: ProgressReport): void {
    const progress = report.progress !== undefined && report.progress > this.#last
      ? report.progress
      : this.#last + (report.total === undefined ? 1 : 0.001);
    this.#last = progress;
    this.#lastSentAt = performance.now();
    const params: Omit<ProgressNotification["params"], "progressToken"> = { progress };
    if (report.total !== undefined) params.total = report.total;
    if (report.message !== undefined) params.message = report.message;
    this.send(params).catch(() => {});
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** Schemas of the requests the SDK server handles, checked here first (see `invalidParams`). */
const REQUEST_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: unknown } }> =
  {
    initialize: InitializeRequestSchema,
    ping: PingRequestSchema,
    "tools/list": ListToolsRequestSchema,
    "tools/call": CallToolRequestSchema,
  };

/**
 * The one-line -32602 message for a request whose params the SDK would refuse (it answers
 * -32603 with its validator's whole dump), naming the first field at fault; null when valid.
 */
export function invalidParams(message: { method?: unknown; params?: unknown }): string | null {
  const schema = typeof message.method === "string" ? REQUEST_SCHEMAS[message.method] : undefined;
  if (!schema) return null;
  const parsed = schema.safeParse({ ...message, params: message.params ?? {} });
  if (parsed.success) return null;
  const issues = (parsed.error as { issues?: { path?: PropertyKey[]; message?: string }[] })?.issues ?? [];
  const issue = issues[0];
  const path = (issue?.path ?? []).map(String).filter((part, i) => !(i === 0 && part === "params")).join(".");
  const why = String(issue?.message ?? "invalid").split("\n")[0];
  return `Invalid params: ${path ? `${path}: ` : ""}${why}`;
}

/**
 * The transport as the SDK server sees it, with version negotiation narrowed to the
 * versions this server speaks: an initialize asking for another one is answered with
 * {@linkcode MCP_PROTOCOL_VERSION} (the SDK would answer its latest). An initialize without
 * `capabilities` (clients written against the reference send only protocolVersion and
 * clientInfo) is taken as `capabilities: {}`; any other malformed request is answered with
 * -32602 and a one-line message naming the field.
 */
function negotiating(transport: Transport): Transport {
  const wrapped: Transport = {
    start: () => transport.start(),
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => transport.send(message, options),
    close: () => transport.close(),
  };
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const m = message as JSONRPCMessage & {
      id?: string | number;
      method?: string;
      params?: { protocolVersion?: unknown; name?: unknown; arguments?: unknown };
    };
    // Invalid tools/call params are -32602 (the SDK would answer -32603 with its validator's dump).
    if (m.method === "tools/call" && m.id !== undefined) {
      if (typeof m.params?.name !== "string" || m.params.name === "") {
        const error = { code: RpcError.InvalidParams, message: "Invalid params: missing tool name" };
        transport.send({ jsonrpc: "2.0", id: m.id, error } as JSONRPCMessage).catch(() => {});
        return;
      }
      // Arguments that are not an object reach the registry as sent, which names the field
      // "(root)" in its invalid_arguments, as on every other transport; the SDK would refuse the request.
      const args = m.params.arguments;
      if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
        const params = m.params as Record<string, unknown> & { _meta?: Record<string, unknown> };
        params._meta = { ...params._meta, [RAW_ARGUMENTS]: args };
        params.arguments = {};
      }
    }
    if (m.method === "initialize" && m.params && typeof m.params === "object" && !Array.isArray(m.params)) {
      const params = m.params as Record<string, unknown>;
      params.capabilities ??= {};
      const asked = params.protocolVersion;
      if (typeof asked === "string" && !MCP_PROTOCOL_VERSIONS.includes(asked as never)) {
        params.protocolVersion = MCP_PROTOCOL_VERSION;
      }
    }
    if (m.id !== undefined) {
      const invalid = invalidParams(m);
      if (invalid !== null) {
        const error = { code: RpcError.InvalidParams, message: invalid };
        transport.send({ jsonrpc: "2.0", id: m.id, error } as JSONRPCMessage).catch(() => {});
        return;
      }
    }
    wrapped.onmessage?.(message, extra);
  };
  transport.onclose = () => wrapped.onclose?.();
  transport.onerror = (error: Error) => wrapped.onerror?.(error);
  return wrapped;
}

/** A JSON-RPC error response with `id` null or the request's. */
export function rpcErrorLine(id: string | number | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
}

/**
 * Checks one line of input: the JSON-RPC message, or the error line to answer with.
 * Responses from the client (to requests this server never sends) are dropped.
 */
export function parseMessage(text: string): { message: JSONRPCMessage } | { reply: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { reply: rpcErrorLine(null, RpcError.ParseError, "Parse error") };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { message: parsed.data };
  const object = typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as { jsonrpc?: unknown; id?: unknown; method?: unknown }
    : null;
  if (object && object.id === undefined && typeof object.method !== "string") return null;
  const id = typeof object?.id === "string" || typeof object?.id === "number" ? object.id : null;
  if (object && object.id === undefined) return null; // A malformed notification is not answered.
  // JSON-RPC 2.0 §4: anything else is not a request this server understands.
  const why = object && object.jsonrpc !== "2.0" ? 'jsonrpc must be "2.0"' : "not a JSON-RPC 2.0 request";
  return { reply: rpcErrorLine(id, RpcError.InvalidRequest, `Invalid Request: ${why}`) };
}
