import assert from "node:assert/strict";
import { DriverError } from "../ports/errors.ts";
import type { Snapshot, SnapshotElement } from "../kernel/snapshots.ts";
import { takeReturnState } from "./return_state.ts";
import { diffSnapshots } from "./successor_state.ts";

function element(
  index: number,
  ref: string,
  label: string,
  extra: Partial<SnapshotElement> = {},
): SnapshotElement {
  return {
    index,
    role: "button",
    platformRole: "push button",
    label,
    ref: { path: ref },
    ...extra,
  } as SnapshotElement;
}

function snapshot(id: string, elements: SnapshotElement[]): Snapshot {
  return { id, pid: 1, windowId: 2, sessionId: "s", elements, createdAt: 0 };
}

const row = (token: string, label: string) => ({ element_token: token, role: "push button", label });

Deno.test("diffSnapshots matches elements by reference: added, removed and changed", () => {
  const base = snapshot("s00000001", [
    element(0, "/a", "OK"),
    element(1, "/b", "Cancel"),
    element(2, "/c", "Name"),
  ]);
  const next = snapshot("s00000002", [
    element(0, "/a", "OK"),
    element(1, "/c", "Name", { value: "typed" }),
    element(2, "/d", "Apply"),
  ]);
  const rows = [row("s00000002:0", "OK"), row("s00000002:1", "Name"), row("s00000002:2", "Apply")];
  const diff = diffSnapshots(base, next, rows);
  assert.deepEqual(diff.added, [rows[2]]);
  assert.deepEqual(diff.changed, [rows[1]]);
  assert.deepEqual(diff.removed, [{ element_token: "s00000001:1", role: "push button", label: "Cancel" }]);
});

Deno.test("diffSnapshots counts an editable field's text read before and after", () => {
  const base = snapshot("s00000001", [element(0, "/e", "entry")]);
  const next = snapshot("s00000002", [element(0, "/e", "entry")]);
  const rows = [row("s00000002:0", "entry")];
  const key = JSON.stringify({ path: "/e" });
  assert.deepEqual(diffSnapshots(base, next, rows).changed, []);
  const texts = { before: new Map([[key, ""]]), after: new Map([[key, "hello"]]) };
  assert.deepEqual(diffSnapshots(base, next, rows, texts).changed, rows);
});

Deno.test("takeReturnState takes the argument out and refuses other values", () => {
  const args: Record<string, unknown> = { x: 1, return_state: "diff" };
  assert.equal(takeReturnState(args), "diff");
  assert.deepEqual(args, { x: 1 });
  assert.equal(takeReturnState({}), "none");
  assert.throws(
    () => takeReturnState({ return_state: "all" }),
    (e: unknown) => e instanceof DriverError && e.data.field === "return_state",
  );
});
