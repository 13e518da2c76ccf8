import assert from "node:assert/strict";
import { outlineOf, PAGE_SIZE, pageOf, parseContinuation, refRecord } from "./present.ts";
import { parseRef, type Snapshot, type SnapshotRef } from "./snapshot.ts";

function ref(index: number, extra: Partial<SnapshotRef> = {}): SnapshotRef {
  return {
    ref: `p4:${index}`,
    backendNodeId: 100 + index,
    kind: "control",
    tag: "button",
    role: "button",
    name: `Button ${index}`,
    type: null,
    value: null,
    depth: 0,
    level: null,
    checked: null,
    disabled: false,
    editable: false,
    focused: false,
    href: null,
    id: null,
    multiple: null,
    draggable: false,
    scrollable: false,
    bounds: { x: 0, y: index * 10, width: 50, height: 10 },
    ...extra,
  };
}

const snapshot = (refs: SnapshotRef[]): Snapshot => ({
  id: 4,
  format: "semantic_v2",
  url: "http://127.0.0.1/",
  loaderId: "L",
  title: "T",
  refs,
  truncated: false,
});

Deno.test("parseRef reads p<snapshot>:<index> and nothing else", () => {
  assert.deepEqual(parseRef("p12:3"), { snapshot: 12, index: 3 });
  for (const bad of ["12:3", "p12", "p:3", "s1234abcd:1", "p1:2:3"]) assert.equal(parseRef(bad), null, bad);
});

Deno.test("pageOf pages a snapshot with continuations and filters by query", () => {
  const snap = snapshot(Array.from({ length: PAGE_SIZE + 5 }, (_, i) => ref(i)));
  const first = pageOf(snap, undefined, 0);
  assert.equal(first.refs.length, PAGE_SIZE);
  assert.equal(first.complete, false);
  assert.equal(first.continuation, `p4@${PAGE_SIZE}`);
  const next = parseContinuation(first.continuation!)!;
  const second = pageOf(snap, undefined, next.offset);
  assert.deepEqual([second.refs.length, second.complete, second.continuation], [5, true, null]);
  assert.deepEqual(pageOf(snap, "button 42", 0).refs.map((r) => r.ref), ["p4:42"]);
});

Deno.test("refRecord and outlineOf show what a ref is and what it takes", () => {
  const field = ref(1, {
    role: "textbox",
    tag: "input",
    type: "text",
    editable: true,
    value: "Ada",
    depth: 1,
    id: "name",
  });
  const record = refRecord(field, true);
  assert.deepEqual(record.actions, ["click", "type", "hover"]);
  assert.equal(record.dom_id, "name");
  const heading = ref(0, { role: "heading", tag: "h1", level: 1, name: "Title" });
  assert.equal(
    outlineOf([heading, field]),
    '# Title [p4:0]\n  - textbox(text) "Button 1" value="Ada" [p4:1]',
  );
});
