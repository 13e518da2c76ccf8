import assert from "node:assert/strict";
import type { DriverError } from "../ports/errors.ts";
import { SessionManager } from "./session.ts";

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as DriverError).code;
  }
  return "no error";
}

Deno.test("SessionManager gives each lease one implicit session and named labels", () => {
  const m = new SessionManager(60_000);
  const a = m.resolve("lease-a", "mcp_stdio");
  assert.equal(m.resolve("lease-a", "mcp_stdio"), a);
  assert.notEqual(m.resolve("lease-b", "mcp_stdio"), a);
  const named = m.resolve("lease-a", "mcp_stdio", "agent");
  assert.equal(named.label, "agent");
  assert.equal(m.resolve("lease-a", "mcp_stdio", "default"), a, '"default" means no label');
  assert.equal(code(() => m.resolve("lease-b", "mcp_stdio", "agent")), "session_unavailable");
});

Deno.test("SessionManager.end runs every cleanup hook exactly once and tombstones the label", async () => {
  const m = new SessionManager(60_000);
  const calls: string[] = [];
  m.addCleanupHook("a", (s) => void calls.push(`a:${s.label}`));
  m.addCleanupHook("b", () => {
    throw new Error("boom");
  });
  m.resolve("l", "cli", "x");
  const first = await m.end("l", "x");
  assert.deepEqual(first, { ended: true, pending: false, failedHooks: ["b"] });
  const second = await m.end("l", "x");
  assert.equal(second.ended, false);
  assert.deepEqual(calls, ["a:x"]);
  assert.equal(code(() => m.resolve("l", "cli", "x")), "session_ended");
  const { revived } = m.start("l", "cli", "x");
  assert.equal(revived, true);
  assert.equal(m.resolve("l", "cli", "x").state, "active");
});

Deno.test("SessionManager defers the end of a session with a call in flight", async () => {
  const m = new SessionManager(60_000);
  let cleaned = 0;
  m.addCleanupHook("count", () => void cleaned++);
  const s = m.resolve("l", "cli", "busy");
  m.enter(s);
  assert.deepEqual(await m.end("l", "busy"), { ended: false, pending: true, failedHooks: [] });
  assert.equal(cleaned, 0);
  await m.leave(s);
  assert.equal(cleaned, 1);
  assert.equal(s.state, "ended");
});

Deno.test("SessionManager.sweep ends idle sessions but never one with a call in flight", async () => {
  const m = new SessionManager(1000);
  const idle = m.resolve("l", "cli");
  const busy = m.resolve("l", "cli", "busy");
  m.enter(busy);
  assert.equal(await m.sweep(Date.now() + 5000), 1);
  assert.equal(idle.state, "ended");
  assert.equal(busy.state, "active");
  assert.notEqual(m.resolve("l", "cli"), idle, "the next unnamed call starts a new implicit session");
});

Deno.test("SessionManager.endLease ends every session of a closed connection", async () => {
  const m = new SessionManager(60_000);
  m.resolve("l", "mcp_http");
  m.resolve("l", "mcp_http", "a");
  m.resolve("other", "mcp_http");
  const ended = await m.endLease("l");
  assert.equal(ended.length, 2);
  assert.equal(m.size, 1);
  assert.equal(m.resolve("l", "mcp_http", "a").label, "a", "a closed lease leaves no tombstones");
});
