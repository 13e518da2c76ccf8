/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin/stdout. Requests run
 * concurrently; each response is written as one line when it is ready.
 * stdin EOF ends the connection's sessions and resolves the returned promise.
 *
 * @module
 */
import type { ToolRegistry } from "../core/registry.ts";
import { McpConnection } from "./mcp_protocol.ts";

/** Serves MCP on the given streams until the input ends. */
export async function serveMcpStdio(
  registry: ToolRegistry,
  input: ReadableStream<Uint8Array> = Deno.stdin.readable,
  output: WritableStream<Uint8Array> = Deno.stdout.writable,
): Promise<void> {
  const connection = new McpConnection(registry, "mcp_stdio");
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
  await Promise.allSettled([...pending]);
  await writing;
  await registry.state.sessions.endLease(connection.lease);
  writer.releaseLock();
}
