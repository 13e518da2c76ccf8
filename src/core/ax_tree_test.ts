import assert from "node:assert/strict";
import { fakeNode } from "../platform/fake/mod.ts";
import { isIndexable, shapeTree } from "./ax_tree.ts";

const nodes = [
  fakeNode({ role: "window", platformRole: "frame", name: "Harness", depth: 0 }),
  fakeNode({ role: "group", platformRole: "panel", depth: 1, parent: 0 }),
  fakeNode({
    role: "button",
    platformRole: "push button",
    name: "Increment",
    depth: 2,
    parent: 1,
    actions: ["click"],
    frame: { x: 1, y: 2, width: 30, height: 20 },
  }),
  fakeNode({ role: "label", platformRole: "label", name: "counter=0", depth: 2, parent: 1 }),
  fakeNode({
    role: "check_box",
    platformRole: "check box",
    name: "Agree",
    depth: 2,
    parent: 1,
    actions: ["click"],
    selected: true,
  }),
  fakeNode({
    role: "button",
    platformRole: "push button",
    name: "Disabled",
    depth: 2,
    parent: 1,
    actions: ["click"],
    enabled: false,
  }),
  fakeNode({
    role: "text_field",
    platformRole: "text",
    name: "",
    value: "hello",
    depth: 2,
    parent: 1,
    editable: true,
    interfaces: ["editable_text", "text"],
  }),
];

Deno.test("isIndexable needs an enabled, non-passive, actionable node", () => {
  assert.deepEqual(nodes.map(isIndexable), [false, false, true, false, true, false, true]);
});

Deno.test("shapeTree indexes actionable nodes in pre-order and renders labels", () => {
  const shaped = shapeTree(nodes, { snapshotId: "s0000000a", maxElements: 100, maxDepth: 100 });
  assert.deepEqual(shaped.elements.map((e) => e.label), ["Increment", "Agree", "hello"]);
  assert.equal(shaped.elements[0].element_token, "s0000000a:0");
  assert.deepEqual(shaped.elements[0].frame, { x: 1, y: 2, w: 30, h: 20 });
  assert.equal(shaped.elements[1].selected, true);
  assert.deepEqual(shaped.elementNodes, [2, 4, 6]);
  assert.match(shaped.markdown, /^- frame = "Harness"$/m);
  assert.match(shaped.markdown, /^ {4}- \[0\] push button "Increment" actions=\[click\]$/m);
  assert.match(shaped.markdown, /^ {4}- label = "counter=0"$/m);
  assert.equal(shaped.truncated, false);
});

Deno.test("shapeTree query keeps matches and their ancestors without renumbering", () => {
  const shaped = shapeTree(nodes, {
    snapshotId: "s0000000a",
    maxElements: 100,
    maxDepth: 100,
    query: "AGREE",
  });
  assert.equal(shaped.markdown, '- frame = "Harness"\n    - [1] check box "Agree" (checked) actions=[click]');
  assert.equal(shaped.elements.length, 3);
});

Deno.test("shapeTree honours max_elements and max_depth and says it truncated", () => {
  const byCount = shapeTree(nodes, { snapshotId: "s0000000a", maxElements: 3, maxDepth: 100 });
  assert.equal(byCount.truncated, true);
  assert.equal(byCount.emittedNodeCount, 3);
  assert.equal(byCount.elements.length, 1);
  const byDepth = shapeTree(nodes, { snapshotId: "s0000000a", maxElements: 100, maxDepth: 1 });
  assert.equal(byDepth.truncated, true);
  assert.equal(byDepth.elements.length, 0);
});
