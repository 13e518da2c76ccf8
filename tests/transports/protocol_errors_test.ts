/**
 * Malformed requests on the network listener get the client-error status their protocol
 * defines, not an internal error: undecodable protobuf on native gRPC is INVALID_ARGUMENT,
 * a JSON-RPC message that is not version 2.0 is an Invalid Request on /mcp.
 */
import assert from "node:assert/strict";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import { startNetworkServer } from "../../src/transports/network/server.ts";
import { allTools } from "../../tools/mod.ts";

const TOKEN = "protocol-errors-token-0123456789abcdef";

// A gRPC call whose message is not protobuf (a field header with wire type 7, which does not exist).
const CLIENT = `
const http2 = require("node:http2");
const session = http2.connect("http://127.0.0.1:" + process.argv[1]);
const stream = session.request({
  ":method": "POST",
  ":path": "/cua.env.v1.DriverService/CallTool",
  "content-type": "application/grpc",
  te: "trailers",
  authorization: "Bearer ${TOKEN}",
});
const status = {};
stream.on("response", (headers) => { if (headers["grpc-status"]) status.headers = headers["grpc-status"]; });
stream.on("trailers", (trailers) => { status.trailers = trailers["grpc-status"]; status.message = trailers["grpc-message"]; });
stream.on("data", () => {});
stream.on("end", () => { console.log(JSON.stringify(status)); session.close(); });
stream.on("error", (error) => { console.error(error.message); process.exit(1); });
const body = Buffer.from([0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f]);
const frame = Buffer.alloc(5 + body.length);
frame.writeUInt8(0, 0);
frame.writeUInt32BE(body.length, 1);
body.copy(frame, 5);
stream.end(frame);
`;

Deno.test({
  name:
    "network listener answers undecodable gRPC with INVALID_ARGUMENT and JSON-RPC 1.0 with Invalid Request",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const registry = new ToolRegistry(allTools, new FakeBackend(), new RuntimeState());
    const server = await startNetworkServer({ registry, token: TOKEN, port: 0 });
    try {
      const output = await new Deno.Command("node", {
        args: ["-e", CLIENT, String(server.port)],
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(20_000),
      }).output();
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      const status = JSON.parse(new TextDecoder().decode(output.stdout));
      assert.equal(status.headers ?? status.trailers, "3", JSON.stringify(status));

      const post = async (message: unknown) =>
        await (await fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${TOKEN}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify(message),
        })).json();
      const old = await post({ jsonrpc: "1.0", id: 7, method: "tools/list" });
      assert.equal(old.error?.code, -32600, JSON.stringify(old));
      assert.equal(old.id, 7);
      const missing = await post({ id: 8, method: "tools/call", params: { name: "get_screen_size" } });
      assert.equal(missing.error?.code, -32600, JSON.stringify(missing));
      // The same server still answers a well-formed request.
      const listed = await post({ jsonrpc: "2.0", id: 9, method: "tools/list" });
      assert.ok(listed.result.tools.length > 10);
    } finally {
      await server.close();
    }
  },
});
