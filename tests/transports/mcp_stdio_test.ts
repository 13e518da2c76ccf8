/**
 * MCP over stdio against a real driver subprocess: the official TypeScript SDK
 * client, and raw JSON-RPC lines for the protocol edge cases.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

const ignore = ignoreWithoutDesktop();

Deno.test({
  name: "mcp stdio serves the official SDK client: initialize, tools/list, tools/call with images",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const env = driverEnv();
    const fixture = await startFixture(env, { title: "MCP stdio fixture" });
    const client = new Client({ name: "cua-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: driverArgs("mcp", "--desktop", "system"),
      env,
      stderr: "inherit",
    });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, "cua-driver");
      assert.match(client.getServerVersion()?.version ?? "", /^\d+\.\d+\.\d+/);

      const { tools } = await client.listTools();
      const names = tools.map((t: { name: string }) => t.name);
      for (const name of ["get_window_state", "list_windows", "get_desktop_state", "zoom"]) {
        assert.ok(names.includes(name), `${name} listed`);
      }

      const size = await client.callTool({ name: "get_screen_size", arguments: {} });
      assert.deepEqual(
        {
          w: (size.structuredContent as { width: number }).width,
          h: (size.structuredContent as { height: number }).height,
        },
        { w: 1920, h: 1080 },
      );

      const state = await client.callTool({
        name: "get_window_state",
        arguments: { pid: fixture.pid, window_id: fixture.xid },
      });
      assert.equal(state.isError, undefined, JSON.stringify(state.content).slice(0, 500));
      const content = state.content as { type: string; text?: string; mimeType?: string; data?: string }[];
      const image = content.find((part) => part.type === "image");
      assert.equal(image?.mimeType, "image/png");
      assert.ok((image?.data?.length ?? 0) > 1000);
      // The tree is the app's own: its label text, read through AT-SPI.
      assert.match(content[0].text ?? "", /counter=0/);

      const bad = await client.callTool({ name: "get_window_state", arguments: { pid: "nope" } });
      assert.equal(bad.isError, true);
      assert.equal((bad.structuredContent as { code: string }).code, "invalid_arguments");
    } finally {
      await client.close();
      await fixture.stop();
    }
  },
});

/** Sends raw lines to `cua-driver mcp` and collects the response lines until stdin closes. */
async function rawSession(lines: string[]): Promise<Record<string, unknown>[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: driverArgs("mcp", "--desktop", "system"),
    env: driverEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await writer.close();
  const output = await child.output();
  assert.equal(output.code, 0, "exits 0 after stdin EOF");
  return new TextDecoder().decode(output.stdout).trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

Deno.test({
  name: "mcp stdio answers protocol errors and keeps serving",
  ignore,
  async fn() {
    const responses = await rawSession([
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      "{not json",
      '{"jsonrpc":"2.0","id":2,"method":"resources/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_screen_size"}}',
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_window_state","arguments":{"pid":1,"window_id":123456789}}}',
    ]);
    const byId = new Map(responses.map((r) => [r.id, r]));
    assert.equal(responses.length, 7, "one response per request, none for the notification");
    const init = byId.get(1)!.result as { protocolVersion: string; serverInfo: { name: string } };
    assert.equal(init.protocolVersion, "2025-06-18");
    assert.equal(init.serverInfo.name, "cua-driver");
    assert.deepEqual(byId.get(null)!.error, { code: -32700, message: "Parse error" });
    assert.deepEqual(byId.get(2)!.error, { code: -32601, message: "Unknown method: resources/list" });
    assert.equal((byId.get(3)!.error as { code: number }).code, -32602);
    const unknown = byId.get(4)!.result as { isError: boolean; structuredContent: { code: string } };
    assert.equal(unknown.isError, true);
    assert.equal(unknown.structuredContent.code, "unknown_tool");
    const size = byId.get(5)!.result as { structuredContent: { width: number } };
    assert.equal(size.structuredContent.width, 1920);
    const vanished = byId.get(6)!.result as { isError: boolean; structuredContent: { code: string } };
    assert.equal(vanished.isError, true);
    assert.equal(vanished.structuredContent.code, "window_target_not_found");
  },
});
