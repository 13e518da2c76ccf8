/**
 * MCP on the SDK's Server over the stdio framing, in process against the fake back end:
 * the SDK client and a raw client negotiating 2025-06-18 and 2025-11-25, progress
 * notifications during a long call, and `notifications/cancelled` stopping a running call
 * (the back end stops being polled and the call leaves its session).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import { serveMcpStdio } from "../../src/transports/mcp/stdio.ts";
import { allTools } from "../../tools/mod.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A served connection: lines in, lines out. */
function serve() {
  const fake = new FakeBackend();
  fake.addWindow({ windowId: 77, pid: 4242, bounds: { x: 0, y: 0, width: 300, height: 200 } });
  const registry = new ToolRegistry(
    allTools,
    fake,
    new RuntimeState(new ConfigStore("/nonexistent/config.json")),
  );
  const toServer = new TransformStream<Uint8Array, Uint8Array>();
  const fromServer = new TransformStream<Uint8Array, Uint8Array>();
  const done = serveMcpStdio(registry, { input: toServer.readable, output: fromServer.writable });
  const writer = toServer.writable.getWriter();
  const lines = fromServer.readable.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    fake,
    registry,
    done,
    send: (message: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n")),
    close: () => writer.close(),
    /** The next message from the server. */
    async next(): Promise<Json> {
      while (!buffer.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("the server closed its output");
        buffer += value;
      }
      const line = buffer.slice(0, buffer.indexOf("\n"));
      buffer = buffer.slice(buffer.indexOf("\n") + 1);
      return JSON.parse(line);
    },
  };
}

/** The SDK client's side of the same line framing. */
function clientTransport(server: ReturnType<typeof serve>): Transport {
  const transport: Transport = {
    start() {
      (async () => {
        for (;;) {
          const message = await server.next().catch(() => null);
          if (message === null) break;
          transport.onmessage?.(message as JSONRPCMessage);
        }
        transport.onclose?.();
      })();
      return Promise.resolve();
    },
    send: (message: JSONRPCMessage) => server.send(message),
    close: () => server.close(),
  };
  return transport;
}

const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** verify_state on the fake window with a predicate that never holds: it polls until its timeout. */
const slowCall = (timeoutMs: number) => ({
  name: "verify_state",
  arguments: { pid: 4242, window_id: 77, expect: [{ window: { exists: false } }], timeout_ms: timeoutMs },
});

Deno.test("mcp raw client negotiates 2025-06-18 and 2025-11-25, and an unknown version gets 2025-06-18", async () => {
  for (
    const [asked, answered] of [["2025-06-18", "2025-06-18"], ["2025-11-25", "2025-11-25"], [
      "2024-11-05",
      "2025-06-18",
    ]]
  ) {
    const server = serve();
    await server.send(initialize(1, asked));
    const init = await server.next();
    assert.equal(init.result.protocolVersion, answered, asked);
    assert.equal(init.result.serverInfo.name, "cua-driver");
    await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_cursor_position" },
    });
    const call = await server.next();
    assert.deepEqual([call.id, call.result.structuredContent.x, call.result.structuredContent.y], [
      2,
      10,
      20,
    ]);
    await server.close();
    await server.done;
  }
});

Deno.test("mcp SDK client lists and calls tools, and hears progress during a long call", async () => {
  const server = serve();
  const client = new Client({ name: "sdk-test", version: "0" });
  await client.connect(clientTransport(server));
  assert.equal(client.getServerVersion()?.name, "cua-driver");
  const { tools } = await client.listTools();
  assert.ok(tools.some((t: { name: string }) => t.name === "verify_state"));
  assert.ok(!tools.some((t: { name: string }) => t.name === "computer_context"), "unlisted tools stay out");
  const progress: Json[] = [];
  const result = await client.callTool(slowCall(2_500), undefined, {
    onprogress: (p: Json) => progress.push(p),
  });
  assert.equal(
    (result.structuredContent as Json).status,
    "unsatisfied",
    JSON.stringify(result.structuredContent),
  );
  assert.ok(progress.length >= 1, "a progress notification arrived during the call");
  assert.match(progress[0].message, /verify_state still running/);
  assert.ok(
    progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress),
    "progress only grows",
  );
  await client.close();
  await server.done;
});

Deno.test("mcp notifications/cancelled stops a running call: no answer, no more polling, the session is idle", async () => {
  const server = serve();
  await server.send(initialize(1, "2025-11-25"));
  await server.next();
  await server.send({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { ...slowCall(10_000), _meta: { progressToken: "p7" } },
  });
  const first = await server.next();
  assert.equal(first.method, "notifications/progress", JSON.stringify(first));
  const session = () => server.registry.state.sessions.all()[0];
  assert.equal(session().inFlight, 1, "the call runs");
  await server.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 7, reason: "test" },
  });
  // The call leaves its session long before its 10 s timeout (bounded wait on the condition).
  const deadline = Date.now() + 5_000;
  while (session().inFlight !== 0) {
    assert.ok(Date.now() < deadline, "the cancelled call is still running");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const polls = server.fake.calls.length;
  // A later request is answered, and nothing for the cancelled id came before it.
  await server.send({ jsonrpc: "2.0", id: 8, method: "ping" });
  let reply = await server.next();
  while (reply.method === "notifications/progress") reply = await server.next();
  assert.equal(reply.id, 8, `no answer for the cancelled call: ${JSON.stringify(reply)}`);
  assert.equal(server.fake.calls.length, polls, "the back end is no longer polled");
  await server.close();
  await server.done;
});
