import assert from "node:assert/strict";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { listenOnePort } from "./listener.ts";

/** Resolves with how the connection ended: "closed" by the server, or "open" still after `ms`. */
function closedWithin(socket: net.Socket, ms: number): Promise<"closed" | "open"> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("open"), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve("closed");
    });
  });
}

Deno.test({
  name: "listenOnePort serves HTTP/1.1 through its pipes and closes a direct connection to its private port",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const h1 = http.createServer((_req, res) => res.end("served"));
    const h2 = http2.createServer();
    const listener = await listenOnePort("127.0.0.1", 0, h1, h2);
    try {
      // Through the public port: served, several times on one keep-alive agent.
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`http://127.0.0.1:${listener.port}/`);
        assert.equal(await response.text(), "served");
      }
      // Straight to the private port, sending nothing: closed (it would skip the first-bytes timeout).
      const direct = net.connect(listener.privatePort, "127.0.0.1");
      direct.on("error", () => {});
      assert.equal(await closedWithin(direct, 10_000), "closed");
      // The public port still serves.
      assert.equal(await (await fetch(`http://127.0.0.1:${listener.port}/`)).text(), "served");
    } finally {
      await listener.close();
      h1.close();
      h2.close();
    }
  },
});
