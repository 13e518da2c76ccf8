/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin/stdout. Requests run
 * concurrently; each response is written as one line when it is ready.
 * stdin EOF aborts the calls in flight, ends the connection's sessions and resolves the
 * returned promise.
 *
 * @module
 */
import type { ToolHost } from "../core/registry.ts";
import { OversizedLine, readLines } from "./line_reader.ts";
import { errorResponse, McpConnection, RpcError } from "./mcp_protocol.ts";

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
  const input = options.input ?? Deno.stdin.readable;
  const output = options.output ?? Deno.stdout.writable;
  const connection = new McpConnection(host, "mcp_stdio", options.lease);
  const writer = output.getWriter();
  const encoder = new TextEncoder();
  let writing = Promise.resolve();
  const pending = new Set<Promise<void>>();

  const write = (line: string) => {
    writing = writing.then(() => writer.write(encoder.encode(line + "\n"))).catch(() => {});
    return writing;
  };

  for await (const line of readLines(input)) {
    if (line instanceof OversizedLine) {
      await write(JSON.stringify(errorResponse(
        null,
        RpcError.InvalidRequest,
        `Invalid Request: a message of at least ${line.bytes} bytes is over the ${line.limit}-byte limit`,
      )));
      continue;
    }
    const task = connection.handleText(line).then(async (response) => {
      if (response) await write(JSON.stringify(response));
    });
    pending.add(task);
    task.finally(() => pending.delete(task));
  }
  // The client is gone: what it asked for stops (input stops, held keys and buttons are released).
  connection.abortAll();
  await Promise.allSettled([...pending]);
  await writing;
  await options.onClose?.(connection.lease);
  writer.releaseLock();
}
