import assert from "node:assert/strict";
import { ToolRegistry } from "../../kernel/registry.ts";
import { RuntimeState } from "../../kernel/runtime_state.ts";
import { FakeBackend } from "../../backends/fake/mod.ts";
import { systemFor } from "../../backends/mod.ts";
import { allTools } from "../../../tools/mod.ts";
import { DaemonClient } from "./client.ts";
import { serveDaemon } from "./server.ts";
import { MAX_REQUEST_LINE_BYTES } from "../../lib/line_reader.ts";

Deno.test({
  name:
    "daemon answers an oversized request line with input_too_large, keeps the connection, and serves others meanwhile",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-daemon-limits-" });
    const registry = new ToolRegistry(allTools, new FakeBackend(), new RuntimeState());
    const { sockets } = await systemFor();
    const daemon = await serveDaemon(registry, { socketPath: `${dir}/d.sock`, sockets });
    const conn = await Deno.connect({ transport: "unix", path: `${dir}/d.sock` });
    const other = await DaemonClient.connect(sockets, `${dir}/d.sock`);
    try {
      const writer = conn.writable.getWriter();
      // An endless line, then a real request on the same connection.
      const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
      const sending = (async () => {
        for (let i = 0; i < 24; i++) await writer.write(chunk);
        await writer.write(new TextEncoder().encode('\n{"id":2,"method":"list"}\n'));
      })();
      // Another client is served while the long line streams in.
      const size = await other.call("get_screen_size", {}, { lease: "o", transport: "daemon" });
      assert.equal((size.structuredContent as { width: number }).width, 1920);
      await sending;
      const reader = conn.readable.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (text.split("\n").length < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      const [refusal, listed] = text.trim().split("\n").map((line) => JSON.parse(line));
      assert.equal(refusal.ok, false);
      assert.equal(refusal.code, "input_too_large");
      assert.match(refusal.error, new RegExp(`${MAX_REQUEST_LINE_BYTES}-byte limit`));
      assert.equal(listed.id, 2);
      assert.equal(listed.ok, true);
      reader.releaseLock();
    } finally {
      other.close();
      conn.close();
      await daemon.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
