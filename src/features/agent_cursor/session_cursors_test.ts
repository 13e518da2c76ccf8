import assert from "node:assert/strict";
import { FakeAgentCursor } from "../../backends/fake/agent_cursor.ts";
import { SessionManager } from "../../kernel/session.ts";
import { AgentCursorStore, displayLabel } from "./session_cursors.ts";

Deno.test("AgentCursorStore creates a cursor only after load(), and answers lookups before it", async () => {
  const sessions = new SessionManager();
  const session = sessions.resolve("lease", "cli", "ac");
  const store = new AgentCursorStore();
  const surface = new FakeAgentCursor();
  assert.equal(store.peek(session.id), undefined);
  store.drop(session.id);
  assert.equal(store.size, 0);
  assert.throws(() => store.of(session, surface), TypeError, "of() before load() is a programming error");
  await Promise.all([store.load(), store.load()]);
  const cursor = store.of(session, surface);
  assert.equal(store.of(session, surface), cursor, "one cursor per session");
  assert.equal(store.peek(session.id), cursor);
  assert.equal(cursor.label, "ac");
  assert.equal(cursor.theme.id, "cua.default");
  assert.equal(cursor.enabled, false);
  store.drop(session.id);
  assert.equal(store.size, 0);
  await sessions.close();
});

Deno.test("displayLabel drops control characters and falls back to implicit", () => {
  assert.equal(displayLabel(null), "implicit");
  assert.equal(displayLabel("a\u0007b"), "ab");
  assert.equal(displayLabel(" \u0000 "), "implicit");
  assert.equal(displayLabel("x".repeat(80)).length, 64);
});
