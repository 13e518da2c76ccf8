/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin/stdout, served by the SDK's
 * `Server` (mcp_server.ts) through a transport on Deno's streams. Requests run
 * concurrently; each message is written as one line when it is ready. A line that is not
 * JSON-RPC, or longer than the line limit, is answered here (-32700, -32600), since the SDK
 * never sees it. stdin EOF aborts the calls still running (input stops, held keys and
 * buttons are released), answers them, ends the connection's sessions and resolves the
 * returned promise.
 *
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ToolHost } from "../../kernel/registry.ts";
import { OversizedLine, readLines } from "../../lib/line_reader.ts";
import { createMcpConnection, parseMessage, RpcError, rpcErrorLine } from "./server.ts";

/** The SDK transport over a pair of byte streams. */
class StreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called when the input ends, before waiting for the requests still open. */
  onend?: () => void;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  #writing = Promise.resolve();
  #closed = false;
  /** Requests read and not answered yet. */
  readonly #open = new Set<string | number>();
  #drained: (() => void) | null = null;
  /** Resolves once the input ended and the transport closed. */
  readonly done: Promise<void>;
  #resolveDone!: () => void;

  constructor(readonly input: ReadableStream<Uint8Array>, output: WritableStream<Uint8Array>) {
    this.#writer = output.getWriter();
    this.done = new Promise((resolve) => this.#resolveDone = resolve);
  }

  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  /** Writes one line; lines keep their order. */
  writeLine(line: string): Promise<void> {
    this.#writing = this.#writing.then(() => this.#writer.write(this.#encoder.encode(line + "\n"))).catch(
      () => {},
    );
    return this.#writing;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const written = this.writeLine(JSON.stringify(message));
    if (
      ("result" in message || "error" in message) && message.id !== undefined && this.#open.delete(message.id)
    ) {
      if (this.#open.size === 0) this.#drained?.();
    }
    return written;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing;
    this.onclose?.();
    this.#resolveDone();
  }

  async #read(): Promise<void> {
    try {
      for await (const line of readLines(this.input)) {
        if (line instanceof OversizedLine) {
          void this.writeLine(rpcErrorLine(
            null,
            RpcError.InvalidRequest,
            `Invalid Request: a message of at least ${line.bytes} bytes is over the ${line.limit}-byte limit`,
          ));
          continue;
        }
        this.#line(line);
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
    // End of input: the client is gone, so what it asked for stops; the calls answer, then close.
    this.onend?.();
    if (this.#open.size) await new Promise<void>((resolve) => this.#drained = resolve);
    await this.close();
  }

  #line(text: string): void {
    if (!text) return;
    const parsed = parseMessage(text);
    if (parsed === null) return;
    if ("reply" in parsed) {
      void this.writeLine(parsed.reply);
      return;
    }
    const message = parsed.message;
    if ("method" in message && "id" in message) this.#open.add(message.id);
    // A cancelled request is never answered (MCP): it no longer holds the connection open.
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined && this.#open.delete(id) && this.#open.size === 0) this.#drained?.();
    }
    this.onmessage?.(message);
  }
}

/** Serves MCP on the given streams until the input ends. */
export async function serveMcpStdio(
  host: ToolHost,
  options: {
    input?: ReadableStream<Uint8Array>;
    output?: WritableStream<Uint8Array>;
    /** Called with the connection's lease once input ends (ends its sessions). */
    onClose?: (lease: string) => Promise<unknown>;
    lease?: string;
  } = {},
): Promise<void> {
  const transport = new StreamTransport(
    options.input ?? Deno.stdin.readable,
    options.output ?? Deno.stdout.writable,
  );
  const connection = createMcpConnection(host, "mcp_stdio", options.lease);
  transport.onend = () => connection.abortAll();
  await connection.connect(transport);
  await transport.done;
  await options.onClose?.(connection.lease);
}
