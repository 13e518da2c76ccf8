import assert from "node:assert/strict";
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import { allTools } from "../mod.ts";
import { AGENT_CURSORS } from "../../src/features/agent_cursor/slot.ts";

function setup() {
  const state = new RuntimeState(
    new ConfigStore("/nonexistent/config.json"),
    "standard",
    new Set(),
    undefined,
    undefined,
    [AGENT_CURSORS],
  );
  const registry = new ToolRegistry(allTools, new FakeBackend(), state);
  return (name: string, args: Record<string, unknown> = {}, lease = "conn-a"): Promise<ToolResult> =>
    registry.call(name, args, { lease, transport: "cli" });
}

function code(result: ToolResult): unknown {
  assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
  return (result.structuredContent as { code?: string }).code;
}

Deno.test("session tools: start, get, list and end a labelled session of one connection", async () => {
  const call = setup();
  const started = await call("start_session", { session: "alpha" });
  assert.equal(started.structuredContent?.active, true);
  assert.equal(started.structuredContent?.revived, false);
  const row = (await call("get_session", { session: "alpha" })).structuredContent!;
  assert.equal(row.session, "alpha");
  assert.equal(row.implicit, false);
  assert.equal(row.state, "active");
  assert.equal(row.recording_active, false);
  const listed = (await call("list_sessions")).structuredContent!;
  assert.deepEqual((listed.sessions as { session: string }[]).map((s) => s.session), ["alpha"]);
  assert.equal((await call("end_session", { session: "alpha" })).structuredContent?.active, false);
  assert.equal(code(await call("get_cursor_position", { session: "alpha" })), "session_ended");
  const revived = await call("start_session", { session: "alpha" });
  assert.equal(revived.structuredContent?.revived, true);
});

Deno.test("session tools: another connection's label and a never-started one are session_not_started", async () => {
  const call = setup();
  await call("start_session", { session: "mine" });
  for (const name of ["get_session", "get_session_state"]) {
    const foreign = await call(name, { session: "mine" }, "conn-b");
    assert.equal(code(foreign), "session_not_started", name);
    const data = foreign.structuredContent as { message?: string; hint?: string };
    assert.match(JSON.stringify(data), /start_session/, `${name} names the remedy`);
    assert.equal(code(await call(name, { session: "never" })), "session_not_started", name);
  }
  const other = (await call("list_sessions", {}, "conn-b")).structuredContent!;
  assert.deepEqual(
    (other.sessions as { session: string }[]).map((s) => s.session).includes("mine"),
    false,
    "a connection lists only its own sessions",
  );
});

Deno.test("session tools: list_sessions pages with an opaque cursor and refuses a bad one", async () => {
  const call = setup();
  for (const label of ["s1", "s2", "s3"]) await call("start_session", { session: label });
  const first = (await call("list_sessions", { limit: 2 })).structuredContent!;
  assert.equal((first.sessions as unknown[]).length, 2);
  assert.equal(typeof first.next_cursor, "string");
  const second = (await call("list_sessions", { limit: 2, cursor: first.next_cursor })).structuredContent!;
  const labels = [...(first.sessions as { session: string }[]), ...(second.sessions as { session: string }[])]
    .map((s) => s.session);
  assert.deepEqual(labels.filter((l) => l !== null), ["s1", "s2", "s3"]);
  assert.equal(code(await call("list_sessions", { cursor: "nope" })), "invalid_cursor");
  assert.equal(code(await call("list_sessions", { limit: 0 })), "invalid_limit");
});

Deno.test("session tools: escalate_session unlocks the desktop once for an auto session, never for a window one", async () => {
  const call = setup();
  await call("start_session", { session: "auto", capture_scope: "auto" });
  const before = (await call("get_session_state", { session: "auto" })).structuredContent!;
  assert.equal(before.effective_scope, "window");
  const escalated = await call("escalate_session", {
    session: "auto",
    reason: "no_window_target",
    detail: "x",
  });
  assert.equal(escalated.isError, undefined, JSON.stringify(escalated.structuredContent));
  const after = (await call("get_session_state", { session: "auto" })).structuredContent!;
  assert.deepEqual(
    [after.effective_scope, after.desktop_unlocked, after.escalation_reason, after.escalation_detail],
    ["desktop", true, "no_window_target", "x"],
  );
  const again = await call("escalate_session", { session: "auto", reason: "other" });
  assert.equal(code(again), "desktop_already_active");
  await call("start_session", { session: "win", capture_scope: "window" });
  assert.equal(
    code(await call("escalate_session", { session: "win", reason: "other" })),
    "desktop_scope_disabled",
  );
  const win = (await call("get_session_state", { session: "win" })).structuredContent!;
  assert.equal(win.effective_scope, "window");
});
