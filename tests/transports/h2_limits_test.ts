/**
 * The one-port listener advertises bounded HTTP/2 settings (nghttp2's defaults allow 2^32-1
 * concurrent streams and header lists of any size), as a standard HTTP/2 client (Node's)
 * receives them.
 */
import assert from "node:assert/strict";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import { startNetworkServer } from "../../src/transports/network/server.ts";
import { allTools } from "../../tools/mod.ts";

const CLIENT = `
const http2 = require("node:http2");
const session = http2.connect("http://127.0.0.1:" + process.argv[1]);
session.on("remoteSettings", (settings) => { console.log(JSON.stringify(settings)); session.close(); });
session.on("error", (error) => { console.error(error.message); process.exit(1); });
`;

Deno.test({
  name: "HTTP/2 listener advertises at most 100 concurrent streams and a 64 KiB header list",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const registry = new ToolRegistry(allTools, new FakeBackend(), new RuntimeState());
    const server = await startNetworkServer({
      registry,
      token: "h2-limits-token-0123456789abcdefghij",
      port: 0,
    });
    try {
      const output = await new Deno.Command("node", {
        args: ["-e", CLIENT, String(server.port)],
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(20_000),
      }).output();
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      const settings = JSON.parse(new TextDecoder().decode(output.stdout));
      assert.equal(settings.maxConcurrentStreams, 100);
      assert.equal(settings.maxHeaderListSize, 64 * 1024);
    } finally {
      await server.close();
    }
  },
});
