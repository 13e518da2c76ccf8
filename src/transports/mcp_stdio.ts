/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin/stdout. Requests run
 * concurrently; each response is written as one line when it is ready.
 * stdin EOF aborts the calls in flight, ends the connection's sessions and resolves the
 * returned promise.
 *
 * @module
 */
import type { ToolHost } from "../core/registry.ts";
import { McpConnection } from "./mcp_protocol.ts";

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

  const decoder = new TextDecoderStream();
  let buffer = "";
  for await (const chunk of input.pipeThrough(decoder)) {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      const task = connection.handleText(line).then(async (response) => {
        if (response) await write(JSON.stringify(response));
      });
      pending.add(task);
      task.finally(() => pending.delete(task));
    }
  }
  if (buffer.trim()) {
    const response = await connection.handleText(buffer.trim());
    if (response) await write(JSON.stringify(response));
  }
  // The client is gone: what it asked for stops (input stops, held keys and buttons are released).
  connection.abortAll();
  await Promise.allSettled([...pending]);
  await writing;
  await options.onClose?.(connection.lease);
  writer.releaseLock();
}
