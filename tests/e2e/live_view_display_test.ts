/**
 * The live view on a desktop of its own: a 5120x2880 Xvfb (frames still fit the page: halved
 * until at most 1280 px wide), then the X server killed under it: the viewer is told the desktop
 * cannot be captured, and the server keeps serving (its health check, and a tool call that
 * answers with a structured error).
 */
import assert from "node:assert/strict";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startDaemon } from "../_helpers/daemon.ts";
import { driverEnv } from "../_helpers/driver.ts";
import { startXvfb } from "../_helpers/mcp_lines.ts";
import { freePort, VIEW_TOKEN, viewFetch } from "../_helpers/view_rig.ts";

const ignore = ignoreWithoutDesktop();

/** Reads server-sent events from a stream until `wanted` returns a value. */
async function readUntil<T>(
  reader: ReadableStreamDefaultReader<string>,
  wanted: (type: string, data: Record<string, unknown>) => T | undefined,
): Promise<T> {
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the view's stream ended");
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (\S+)/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!type || !data) continue;
      const found = wanted(type, JSON.parse(data));
      if (found !== undefined) return found;
    }
  }
}

Deno.test({
  name: "live view: a 5K screen still fits the page, and a lost X server is reported while serving goes on",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const xvfb = await startXvfb("5120x2880");
    const port = freePort();
    const env = driverEnv({
      DISPLAY: `:${xvfb.display}`,
      CUA_DRIVER_RS_MCP_HTTP_PORT: String(port),
      CUA_DRIVER_RS_MCP_HTTP_TOKEN: VIEW_TOKEN,
    });
    const serve = await startDaemon([], env);
    try {
      const base = `http://127.0.0.1:${port}`;
      const response = await viewFetch(`${base}/view/events`, {
        headers: { Authorization: `Bearer ${VIEW_TOKEN}` },
      });
      assert.equal(response.status, 200);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const frame = await readUntil(reader, (type, data) => type === "frame" ? data : undefined);
      assert.ok((frame.width as number) <= 1280, `a frame of at most 1280 px: ${frame.width}`);
      assert.equal((frame.bounds as { width: number }).width, 5120);

      xvfb.child.kill("SIGKILL");
      await xvfb.child.status;
      const problem = await readUntil(reader, (type, data) => type === "problem" ? data : undefined);
      assert.match(String(problem.message), /cannot be captured/);
      await reader.cancel();

      const health = await viewFetch(`${base}/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
      const rpc = await viewFetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${VIEW_TOKEN}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            clientInfo: { name: "t", version: "1" },
            capabilities: {},
          },
        }),
      });
      assert.equal(rpc.status, 200, await rpc.clone().text());
      const session = rpc.headers.get("mcp-session-id");
      await rpc.body?.cancel();
      const call = await viewFetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${VIEW_TOKEN}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...(session ? { "Mcp-Session-Id": session } : {}),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "get_screen_size", arguments: {} },
        }),
      });
      const answer = await call.json();
      assert.equal(answer.result?.isError, true, JSON.stringify(answer).slice(0, 400));
      assert.equal(typeof answer.result?.structuredContent?.code, "string");
    } finally {
      try {
        xvfb.child.kill("SIGKILL");
      } catch { /* gone */ }
      await serve.stop();
    }
  },
});
