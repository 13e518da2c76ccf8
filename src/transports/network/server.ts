/**
 * The network listener of `cua-driver serve`: one TCP port serving native gRPC
 * (HTTP/2 cleartext), gRPC-Web and Connect (HTTP/1.1) for cua.env.v1
 * ComputerService and DriverService, and MCP streamable HTTP at /mcp, all over the
 * one tool registry (S8). Off unless `CUA_DRIVER_RS_MCP_HTTP_PORT` is set; then a
 * token is mandatory.
 *
 * @module
 */
import { Code, createContextValues, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import http from "node:http";
import http2 from "node:http2";
import type { ToolRegistry } from "../../kernel/registry.ts";
import { BearerAuth, checkBind, hostAllowed, NetworkConfigError, validateToken } from "./auth.ts";
import { computerService } from "./grpc/computer_service.ts";
import { ConnectionLeases, kLease } from "./grpc/context.ts";
import { driverService } from "./grpc/driver_service.ts";
import { rpcError } from "./grpc/errors.ts";
import { ErrorReason } from "./grpc/gen/cua/env/v1/common_pb.ts";
import { ComputerService } from "./grpc/gen/cua/env/v1/computer_pb.ts";
import { DriverService } from "./grpc/gen/cua/env/v1/driver_pb.ts";
import { listenOnePort } from "./listener.ts";
import { McpHttpHandler, rpcFailure } from "../mcp/http.ts";
import { withParseStatus } from "./grpc/parse_status.ts";
import { LiveView } from "../view/live_view.ts";

export { NetworkConfigError } from "./auth.ts";

/** HTTP/2 settings the listener advertises. */
export const H2_SETTINGS = { maxConcurrentStreams: 100, maxHeaderListSize: 64 * 1024 } as const;

/** Options of {@linkcode startNetworkServer}. */
export interface NetworkServerOptions {
  registry: ToolRegistry;
  /** Bearer token, 32 to 4096 characters without whitespace. Mandatory. */
  token: string;
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  /** Bind address; default 127.0.0.1. A non-loopback address needs the token (always given). */
  host?: string;
}

/** A running network listener. */
export interface NetworkServer {
  readonly host: string;
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  /** The live view's address with the token, for the person who started the server. */
  readonly viewUrl: string;
  /** Closes the port and every connection, and ends their leases. Idempotent. */
  close(): Promise<void>;
}

/** Largest gRPC message accepted (a 16 MiB clipboard image plus framing). */
const READ_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Starts the one-port listener.
 *
 * @throws {NetworkConfigError} for a missing or malformed token or a bad port.
 * @throws {Error} when the port cannot be bound.
 */
export async function startNetworkServer(options: NetworkServerOptions): Promise<NetworkServer> {
  const host = options.host ?? "127.0.0.1";
  const token = validateToken(options.token);
  checkBind(host, token);
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new NetworkConfigError(`Port must be an integer 0 to 65535, not ${options.port}`);
  }
  const auth = new BearerAuth(token);
  const leases = new ConnectionLeases(options.registry, "grpc");
  const mcp = new McpHttpHandler(options.registry, auth);
  const view = new LiveView(options.registry, auth);
  let port = options.port;

  const requireToken: Interceptor = (next) => (req) => {
    if (!auth.check(req.header.get("authorization"))) {
      throw rpcError(Code.Unauthenticated, ErrorReason.UNAUTHENTICATED, "Missing or wrong bearer token", {
        metadata: { hint: "send metadata authorization: Bearer <CUA_DRIVER_RS_MCP_HTTP_TOKEN>" },
      });
    }
    return next(req);
  };
  const rpc = connectNodeAdapter({
    routes(router) {
      router.service(ComputerService, computerService(options.registry));
      router.service(DriverService, driverService(options.registry));
    },
    interceptors: [requireToken],
    readMaxBytes: READ_MAX_BYTES,
    contextValues(req) {
      const connection: { once(event: "close", fn: () => void): unknown } = "stream" in req
        ? req.stream.session ?? req.socket
        : req.socket;
      const lease = leases.leaseFor(connection, (fn) => connection.once("close", fn));
      return createContextValues().set(kLease, lease);
    },
  });

  const h1 = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    if (!hostAllowed(req.headers.host, host, port)) {
      return rpcFailure(res, 403, -32600, "Host header does not name this listener (DNS rebinding?)");
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path.startsWith(`/cua.env.v1.`)) {
      // Browser pages never get here: no CORS, and an Origin is refused like on /mcp.
      if (req.headers.origin !== undefined) {
        return rpcFailure(res, 403, -32600, "Browser-origin requests are forbidden");
      }
      return rpc(req, res);
    }
    if (LiveView.serves(path)) return view.handle(req, res, path);
    if (path === "/health" && req.method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    void mcp.handle(req, res);
  });
  // Advertise sane limits: nghttp2's defaults are unbounded (2^32-1 concurrent streams,
  // header lists of any size), which let one client allocate without end.
  const h2 = http2.createServer({ settings: H2_SETTINGS }, (req, res) => {
    if (!hostAllowed(req.headers[":authority"] ?? req.headers.host, host, port)) {
      res.writeHead(403, { "Content-Type": "text/plain" }).end("Host does not name this listener");
      return;
    }
    rpc(req, withParseStatus(res));
  });
  h2.on("sessionError", () => {});

  const listener = await listenOnePort(host, options.port, h1, h2);
  port = listener.port;
  let closing: Promise<void> | null = null;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    host,
    port,
    url: `http://${urlHost}:${port}`,
    viewUrl: `http://${urlHost}:${port}/view?token=${encodeURIComponent(token)}`,
    close() {
      closing ??= (async () => {
        view.close();
        await listener.close();
        h1.close();
        h2.close();
        await mcp.closeAll();
        await leases.endAll();
      })();
      return closing;
    },
  };
}

/** The listener configuration in the environment, or null when the port is not set. */
export interface NetworkEnvConfig {
  port: number;
  token: string;
  host: string;
}

/**
 * Reads `CUA_DRIVER_RS_MCP_HTTP_PORT` (1 to 65535), `CUA_DRIVER_RS_MCP_HTTP_TOKEN`
 * (mandatory once the port is set) and the optional `CUA_DRIVER_RS_MCP_HTTP_HOST`
 * (default 127.0.0.1).
 *
 * @throws {NetworkConfigError} for a bad port, a missing or malformed token.
 */
export function networkConfigFromEnv(env: (name: string) => string | undefined): NetworkEnvConfig | null {
  const portText = env("CUA_DRIVER_RS_MCP_HTTP_PORT");
  if (portText === undefined || portText === "") return null;
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || port < 1 || port > 65535) {
    throw new NetworkConfigError(
      `CUA_DRIVER_RS_MCP_HTTP_PORT must be an integer 1 to 65535, not "${portText}"`,
    );
  }
  const token = validateToken(env("CUA_DRIVER_RS_MCP_HTTP_TOKEN"));
  const host = env("CUA_DRIVER_RS_MCP_HTTP_HOST") || "127.0.0.1";
  checkBind(host, token);
  return { port, token, host };
}
