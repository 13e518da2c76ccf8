import assert from "node:assert/strict";
import { DriverError } from "./errors.ts";
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
