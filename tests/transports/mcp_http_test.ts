/**
 * MCP over streamable HTTP at /mcp on the one-port listener: the official SDK
 * client (StreamableHTTPClientTransport with a bearer token), and raw requests
 * for the refusals (token, Origin, Host, method) and the JSON-RPC edge cases.
 * The registry runs on the fake back end, so no desktop is needed.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import {
  NetworkConfigError,
  networkConfigFromEnv,
  startNetworkServer,
} from "../../src/transports/network/server.ts";
import { allTools } from "../../tools/mod.ts";

const TOKEN = "mcp-http-test-token-abcdefghijklmnopqrstuvwxyz"; // 46 characters

async function withServer(fn: (url: string, port: number, registry: ToolRegistry) => Promise<void>) {
  const registry = new ToolRegistry(allTools, new FakeBackend(), new RuntimeState());
  const server = await startNetworkServer({ registry, token: TOKEN, port: 0 });
  try {
    await fn(server.url, server.port, registry);
  } finally {
    await server.close();
  }
}

function post(url: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}`, ...headers },
    body,
  });
}

/** Sends one raw HTTP/1.1 request (to set headers fetch will not) and returns the status line and body. */
async function rawRequest(port: number, head: string, body = ""): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const bytes = new TextEncoder().encode(body);
    await conn.write(
      new TextEncoder().encode(`${head}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`),
    );
    await conn.write(bytes);
    let text = "";
    const buffer = new Uint8Array(65536);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    return { status: Number(text.split(" ")[1]), text };
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

Deno.test({
  name: "mcp http serves the official SDK client: initialize, tools/list, tools/call",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (url, _port, registry) => {
      const client = new Client({ name: "cua-http-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      });
      try {
        await client.connect(transport);
        assert.equal(client.getServerVersion()?.name, "cua-driver");
        const { tools } = await client.listTools();
        const names = tools.map((t: { name: string }) => t.name);
        assert.deepEqual(names, registry.list().map((t) => t.name));
        assert.ok(
          names.includes("get_window_state") && !names.includes("page"),
          "legacy tools stay unlisted",
        );
        const result = await client.callTool({ name: "get_screen_size", arguments: {} });
        assert.equal(result.isError, undefined);
        assert.equal((result.structuredContent as { width: number }).width, 1920);
        const failed = await client.callTool({ name: "get_screen_size", arguments: { bogus: 1 } });
        assert.equal(failed.isError, true);
      } finally {
        await client.close();
      }
    });
  },
});

Deno.test({
  name: "mcp http refuses a missing or wrong token with 401, an Origin with 403, a foreign Host with 403",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (url, port) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      const missing = await fetch(`${url}/mcp`, { method: "POST", body });
      assert.equal(missing.status, 401);
      assert.equal((await missing.json()).error.code, -32001);
      const wrong = await post(url, body, { Authorization: `Bearer ${"w".repeat(46)}` });
      assert.equal(wrong.status, 401);
      await wrong.body?.cancel();
      const origin = await post(url, body, { Origin: "http://evil.example" });
      assert.equal(origin.status, 403);
      assert.equal((await origin.json()).error.message, "Browser-origin requests are forbidden");
      const auth = `Authorization: Bearer ${TOKEN}\r\nContent-Type: application/json`;
      const rebinding = await rawRequest(
        port,
        `POST /mcp HTTP/1.1\r\nHost: evil.example:${port}\r\n${auth}`,
        body,
      );
      assert.equal(rebinding.status, 403, rebinding.text);
      const wrongPort = await rawRequest(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\n${auth}`, body);
      assert.equal(wrongPort.status, 403);
      const good = await rawRequest(port, `POST /mcp HTTP/1.1\r\nHost: localhost:${port}\r\n${auth}`, body);
      assert.equal(good.status, 200, good.text);
    });
  },
});

Deno.test({
  name: "mcp http answers a notification with 202, GET with 405, bad JSON with -32700",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (url) => {
      const note = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      assert.equal(note.status, 202);
      assert.equal(await note.text(), "");
      const get = await fetch(`${url}/mcp`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      assert.equal(get.status, 405);
      await get.body?.cancel();
      const bad = await post(url, "{not json");
      assert.equal(bad.status, 200);
      assert.deepEqual((await bad.json()).error, { code: -32700, message: "Parse error" });
      const unknown = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "resources/list" }));
      assert.equal((await unknown.json()).error.code, -32601);
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
    });
  },
});

Deno.test("networkConfigFromEnv is off without a port and requires a well-formed token with one", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(networkConfigFromEnv(env({})), null);
  assert.throws(() => networkConfigFromEnv(env({ CUA_DRIVER_RS_MCP_HTTP_PORT: "8080" })), NetworkConfigError);
  assert.throws(
    () =>
      networkConfigFromEnv(
        env({ CUA_DRIVER_RS_MCP_HTTP_PORT: "8080", CUA_DRIVER_RS_MCP_HTTP_TOKEN: "short" }),
      ),
    NetworkConfigError,
  );
  assert.throws(
    () =>
      networkConfigFromEnv(
        env({
          CUA_DRIVER_RS_MCP_HTTP_PORT: "8080",
          CUA_DRIVER_RS_MCP_HTTP_TOKEN: `${"a".repeat(20)} ${"b".repeat(20)}`,
        }),
      ),
    NetworkConfigError,
    "whitespace is refused",
  );
  for (const port of ["0", "65536", "x1"]) {
    assert.throws(
      () =>
        networkConfigFromEnv(env({ CUA_DRIVER_RS_MCP_HTTP_PORT: port, CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN })),
      NetworkConfigError,
      port,
    );
  }
  assert.deepEqual(
    networkConfigFromEnv(env({ CUA_DRIVER_RS_MCP_HTTP_PORT: "8080", CUA_DRIVER_RS_MCP_HTTP_TOKEN: TOKEN })),
    { port: 8080, token: TOKEN, host: "127.0.0.1" },
  );
});

Deno.test("startNetworkServer refuses to start without a valid token", async () => {
  const registry = new ToolRegistry(allTools, new FakeBackend(), new RuntimeState());
  await assert.rejects(() => startNetworkServer({ registry, token: "", port: 0 }), NetworkConfigError);
  await assert.rejects(
    () => startNetworkServer({ registry, token: "x".repeat(31), port: 0 }),
    NetworkConfigError,
  );
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", clientInfo: { name: "reference-style client", version: "1" } },
});

/** A tools/call body. */
function callBody(id: number, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

Deno.test({
  name: "mcp http issues an Mcp-Session-Id per initialize and keeps each client's sessions to itself",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (url, port) => {
      // Two clients with the same token, over the same fetch connection pool.
      const a = await post(url, INITIALIZE);
      const b = await post(url, INITIALIZE);
      const idA = a.headers.get("mcp-session-id"), idB = b.headers.get("mcp-session-id");
      assert.equal((await a.json()).result.serverInfo.name, "cua-driver");
      await b.body?.cancel();
      assert.ok(idA && idB && idA !== idB, `${idA} ${idB}`);
      const started = await post(url, callBody(2, "start_session", { session: "alpha-24" }), {
        "Mcp-Session-Id": idA,
      });
      assert.equal((await started.json()).result.isError, undefined);
      // B cannot see or end A's named session.
      const peek = await post(url, callBody(3, "get_session", { session: "alpha-24" }), {
        "Mcp-Session-Id": idB,
      });
      assert.equal((await peek.json()).result.isError, true);
      await (await post(url, callBody(3, "end_session", { session: "alpha-24" }), { "Mcp-Session-Id": idB }))
        .body?.cancel();
      // A keeps it across a new TCP connection (Connection: close on every raw request).
      const auth =
        `Authorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nMcp-Session-Id: ${idA}`;
      const again = await rawRequest(
        port,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}`,
        callBody(4, "get_session", { session: "alpha-24" }),
      );
      assert.equal(again.status, 200, again.text);
      assert.doesNotMatch(again.text, /"isError":true/, again.text);
      assert.match(again.text, /"state":"active"/, again.text);
      // An unknown id is 404; DELETE ends the session, and its id is unknown afterwards.
      const unknown = await post(url, callBody(5, "get_screen_size", {}), {
        "Mcp-Session-Id": "no-such-session",
      });
      assert.equal(unknown.status, 404);
      await unknown.body?.cancel();
      const ended = await fetch(`${url}/mcp`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${TOKEN}`, "Mcp-Session-Id": idA },
      });
      assert.equal(ended.status, 200);
      await ended.body?.cancel();
      const gone = await post(url, callBody(6, "get_screen_size", {}), { "Mcp-Session-Id": idA });
      assert.equal(gone.status, 404);
      await gone.body?.cancel();
      // A's named session ended with it: B may now take the label.
      const taken = await post(url, callBody(7, "start_session", { session: "alpha-24" }), {
        "Mcp-Session-Id": idB,
      });
      assert.equal((await taken.json()).result.isError, undefined);
    });
  },
});

Deno.test({
  name:
    "mcp http accepts initialize without capabilities and answers malformed params with a one-line -32602",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withServer(async (url) => {
      const init = await post(url, INITIALIZE);
      assert.equal((await init.json()).result.protocolVersion, "2025-06-18");
      const cases: [string, RegExp][] = [
        [JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: {} }), /protocolVersion/],
        [
          JSON.stringify({
            jsonrpc: "2.0",
            id: 3,
            method: "initialize",
            params: { protocolVersion: "2025-06-18" },
          }),
          /clientInfo/,
        ],
        [JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { cursor: {} } }), /cursor/],
      ];
      for (const [body, field] of cases) {
        const error = (await (await post(url, body)).json()).error;
        assert.equal(error.code, -32602, body);
        assert.match(error.message, /^Invalid params: /);
        assert.match(error.message, field);
        assert.doesNotMatch(error.message, /\n/, "one line");
      }
    });
  },
});
