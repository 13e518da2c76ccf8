/**
 * A client of `cua-driver serve`: one connection (one session lease), requests
 * pipelined by id, and a {@linkcode ToolHost} view so the stdio MCP server can
 * proxy to the daemon.
 *
 * @module
 */
import type { CallOptions, ToolHost, ToolListing } from "../../kernel/registry.ts";
import type { ToolResult } from "../../kernel/result.ts";
import type { LocalConnection, LocalSockets } from "../../ports/system.ts";
import { type DaemonRequest, type DaemonResponse, MAX_RESPONSE_LINE_BYTES } from "./protocol.ts";
import { OversizedLine, readLines } from "../../lib/line_reader.ts";

/** A connected daemon client. */
export class DaemonClient implements ToolHost {
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (r: DaemonResponse) => void; reject: (e: Error) => void }>();
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  #closed = false;
  readonly closed: Promise<void>;

  private constructor(readonly conn: LocalConnection, readonly socketPath: string) {
    this.#writer = conn.writable.getWriter();
    this.closed = this.#readLoop();
  }

  /**
   * Connects, refusing a socket owned by another user.
   *
   * @throws {DriverError} `daemon_unavailable` when nothing listens; `permission_denied`
   *   for another user's socket.
   */
  static async connect(sockets: LocalSockets, socketPath: string): Promise<DaemonClient> {
    const conn = await sockets.connect(socketPath);
    return new DaemonClient(conn, socketPath);
  }

  /** Sends one request and waits for its response. */
  request(request: Omit<DaemonRequest, "id">): Promise<DaemonResponse> {
    if (this.#closed) return Promise.reject(new Error("The daemon connection is closed"));
    const id = this.#nextId++;
    const promise = new Promise<DaemonResponse>((resolve, reject) =>
      this.#pending.set(id, { resolve, reject })
    );
    this.#writer.write(this.#encoder.encode(JSON.stringify({ ...request, id }) + "\n")).catch((error) => {
      this.#pending.get(id)?.reject(error);
      this.#pending.delete(id);
    });
    return promise;
  }

  /** tools/list through the daemon. */
  async list(): Promise<ToolListing[]> {
    const response = await this.request({ method: "list" });
    if (!response.ok) throw new Error(response.error ?? "list failed");
    return (response.result as { tools: ToolListing[] }).tools;
  }

  /** tools/call through the daemon; transport failures become tool errors. */
  async call(name: string, args: unknown, _options: CallOptions): Promise<ToolResult> {
    try {
      const response = await this.request({ method: "call", name, args, client_kind: "mcp_proxy" });
      if (response.ok) return response.result as ToolResult;
      return {
        isError: true,
        content: [{ type: "text", text: response.error ?? "The daemon refused the call" }],
        structuredContent: {
          status: "failed",
          code: "internal_error",
          message: response.error,
          exit_code: response.exit_code,
        },
      };
    } catch (error) {
      return {
        isError: true,
        content: [{ type: "text", text: `Lost the daemon: ${(error as Error).message}` }],
        structuredContent: { status: "failed", code: "internal_error", message: (error as Error).message },
      };
    }
  }

  /** Closes the connection (the daemon ends this lease's sessions). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.conn.close();
    } catch {
      // Already closed.
    }
  }

  async #readLoop(): Promise<void> {
    try {
      for await (const line of readLines(this.conn.readable, MAX_RESPONSE_LINE_BYTES)) {
        // A response too long to read cannot be matched to its call: the connection is given up.
        if (line instanceof OversizedLine) break;
        const response = JSON.parse(line) as DaemonResponse;
        const waiter = typeof response.id === "number" ? this.#pending.get(response.id) : undefined;
        if (waiter) {
          this.#pending.delete(response.id as number);
          waiter.resolve(response);
        }
      }
    } catch {
      // Connection reset.
    } finally {
      this.#closed = true;
      for (const { reject } of this.#pending.values()) reject(new Error("The daemon closed the connection"));
      this.#pending.clear();
    }
  }
}
