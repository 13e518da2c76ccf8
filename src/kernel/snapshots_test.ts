import assert from "node:assert/strict";
import { DriverError } from "../ports/errors.ts";
import { MAX_SNAPSHOTS_PER_PID, SnapshotStore } from "./snapshots.ts";

const elements = [{ index: 0, role: "button" as const, platformRole: "push button", label: "OK", ref: "a" }];

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as DriverError).code;
  }
  return "no error";
}

Deno.test("SnapshotStore.resolve finds an element of the current snapshot", () => {
  const store = new SnapshotStore();
  const { snapshot } = store.register(10, 100, elements);
  assert.match(snapshot.id, /^s[0-9a-f]{8}$/);
  assert.equal(store.resolve(`${snapshot.id}:0`).element.label, "OK");
});

Deno.test("SnapshotStore.register invalidates the window's older snapshot at once", () => {
  const store = new SnapshotStore();
  const first = store.register(10, 100, elements).snapshot;
  const second = store.register(10, 100, elements);
  assert.deepEqual(second.invalidated, [first.id]);
  assert.equal(codeOf(() => store.resolve(`${first.id}:0`)), "stale_element_token");
  try {
    store.resolve(`${first.id}:0`);
  } catch (error) {
    assert.deepEqual((error as DriverError).data.current_snapshot_ids, [second.snapshot.id]);
  }
});

Deno.test("SnapshotStore keeps other windows' snapshots and evicts beyond the per-pid limit", () => {
  const store = new SnapshotStore();
  const ids = Array.from(
    { length: MAX_SNAPSHOTS_PER_PID + 1 },
    (_, i) => store.register(10, 200 + i, elements).snapshot.id,
  );
  assert.equal(codeOf(() => store.resolve(`${ids[0]}:0`)), "stale_element_token");
  assert.equal(store.resolve(`${ids[1]}:0`).snapshot.windowId, 201);
});

Deno.test("SnapshotStore.resolve rejects malformed tokens and out-of-range indices", () => {
  const store = new SnapshotStore();
  const { snapshot } = store.register(10, 100, elements);
  assert.equal(codeOf(() => store.resolve("nonsense")), "invalid_element_token");
  assert.equal(codeOf(() => store.resolve(`${snapshot.id}:5`)), "invalid_element_token");
});

function errorOf(fn: () => unknown): DriverError {
  try {
    fn();
  } catch (error) {
    return error as DriverError;
  }
  throw new Error("no error");
}

Deno.test("SnapshotStore.resolve says once why a token is stale: replaced, another session, session ended, unknown", () => {
  const store = new SnapshotStore();
  const first = store.register(10, 100, elements, undefined, "a").snapshot;
  const second = store.register(10, 100, elements, undefined, "a").snapshot;
  const replaced = errorOf(() => store.resolve(`${first.id}:0`, "a"));
  assert.equal(
    replaced.message,
    `Element token "${first.id}:0" is stale: a newer get_window_state of window 100 (${second.id}) replaced it`,
  );
  assert.equal(replaced.data.hint, "call get_window_state again for fresh element tokens");
  assert.ok(!`${replaced.message}: ${replaced.data.hint}`.includes("refresh: call"), "not doubled");
  assert.deepEqual(replaced.data.current_snapshots, [{ snapshot_id: second.id, pid: 10, window_id: 100 }]);

  const other = errorOf(() => store.resolve(`${second.id}:0`, "b"));
  assert.match(other.message, /belongs to another session/);
  assert.equal(other.data.reason, "other_session");

  store.dropSession("a");
  assert.match(errorOf(() => store.resolve(`${second.id}:0`, "a")).message, /its session ended$/);
  const unknown = errorOf(() => store.resolve("s7fffffff:0", "a"));
  assert.match(unknown.message, /never made it \(it restarted, or the token came from another process\)/);
  assert.equal(unknown.data.reason, "unknown");
});
