import assert from "node:assert/strict";
import { fakeNode } from "../backends/fake/mod.ts";
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
  assert.match(
    shaped.markdown,
    /^ {2}- \[0\] push button "Increment"$/m,
    "one action is what a click does; an unnamed panel adds no indent",
  );
  assert.match(shaped.markdown, /^ {2}- label = "counter=0"$/m);
  assert.equal(shaped.truncated, false);
});

Deno.test("shapeTree query keeps matches and their ancestors without renumbering", () => {
  const shaped = shapeTree(nodes, {
    snapshotId: "s0000000a",
    maxElements: 100,
    maxDepth: 100,
    query: "AGREE",
  });
  assert.equal(shaped.markdown, '- frame = "Harness"\n  - [1] check box "Agree" (checked)');
  assert.equal(shaped.elements.length, 3);
  assert.deepEqual(shaped.shown.map((e) => e.label), ["Agree"], "the structured rows follow the query");
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

const menuTree = [
  fakeNode({ role: "window", platformRole: "frame", name: "Editor", depth: 0, showing: true }),
  fakeNode({
    role: "menu",
    platformRole: "menu",
    name: "File",
    depth: 1,
    parent: 0,
    actions: ["click"],
    showing: true,
  }),
  fakeNode({
    role: "menu_item",
    platformRole: "menu item",
    name: "Save As...      ",
    depth: 2,
    parent: 1,
    actions: ["click"],
    showing: false,
  }),
  fakeNode({
    role: "menu_item",
    platformRole: "menu item",
    name: "Quit      ",
    depth: 2,
    parent: 1,
    actions: ["click"],
    showing: false,
  }),
  fakeNode({
    role: "button",
    platformRole: "push button",
    name: "OK",
    depth: 1,
    parent: 0,
    actions: ["click"],
    showing: true,
    frame: { x: 5, y: 5, width: 10, height: 10 },
  }),
];

Deno.test("shapeTree folds a subtree that is not on screen into one line, and expand lists it", () => {
  const folded = shapeTree(menuTree, { snapshotId: "s0000000a", maxElements: 100, maxDepth: 100 });
  assert.equal(
    folded.markdown,
    [
      '- frame = "Editor"',
      '  - [0] menu "File"',
      '    - (not on screen: 2 nodes, 2 elements [1-2]: "Save As...", "Quit"; expand "h1")',
      '  - [3] push button "OK"',
    ].join("\n"),
  );
  assert.deepEqual(folded.elements.map((e) => e.element_token), [
    "s0000000a:0",
    "s0000000a:1",
    "s0000000a:2",
    "s0000000a:3",
  ]);
  assert.deepEqual(folded.shown.map((e) => e.label), ["File", "OK"], "folded elements keep their tokens");
  assert.deepEqual(folded.hiddenGroups, [{ id: "h1", nodes: 2, elements: [1, 2] }]);

  const expanded = shapeTree(menuTree, {
    snapshotId: "s0000000a",
    maxElements: 100,
    maxDepth: 100,
    expand: ["h1"],
  });
  assert.match(expanded.markdown, /^ {4}- \[1\] menu item "Save As\.\.\."$/m, "labels lose their padding");
  assert.deepEqual(expanded.shown.map((e) => e.label), ["File", "Save As...", "Quit", "OK"]);
  const queried = shapeTree(menuTree, {
    snapshotId: "s0000000a",
    maxElements: 100,
    maxDepth: 100,
    query: "quit",
  });
  assert.deepEqual(
    queried.shown.map((e) => e.element_token),
    ["s0000000a:0", "s0000000a:2"],
    "a query reaches folded lines (with their ancestors)",
  );
});

Deno.test("shapeTree says an action list shared by a role once", () => {
  const cells = [
    fakeNode({ role: "table", platformRole: "table", name: "Files", depth: 0 }),
    ...["a", "b", "c"].map((name) =>
      fakeNode({
        role: "cell",
        platformRole: "table cell",
        name,
        depth: 1,
        parent: 0,
        actions: ["expand or contract", "edit", "activate"],
      })
    ),
    fakeNode({
      role: "button",
      platformRole: "push button",
      name: "Go",
      depth: 1,
      parent: 0,
      actions: ["click", "press"],
    }),
  ];
  const shaped = shapeTree(cells, { snapshotId: "s0000000a", maxElements: 100, maxDepth: 100 });
  assert.deepEqual(shaped.roleActions, { "table cell": ["expand or contract", "edit", "activate"] });
  assert.match(shaped.markdown, /^- \(every table cell: actions=\[expand or contract,edit,activate\]\)$/m);
  assert.match(shaped.markdown, /^ {2}- \[0\] table cell "a"$/m);
  assert.match(shaped.markdown, /^ {2}- \[3\] push button "Go" actions=\[click,press\]$/m);
  assert.equal(shaped.shown[0].actions, undefined);
  assert.deepEqual(shaped.shown[3].actions, ["click", "press"]);
});
