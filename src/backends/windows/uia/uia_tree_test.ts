import assert from "node:assert/strict";
import type { VariantValue } from "../../../../ffi/windows/com.ts";
import { buildUiaTree, type CachedElement } from "./uia_tree.ts";

interface Recorded {
  properties: Record<string, VariantValue>;
  children: Recorded[];
}

const recordings = JSON.parse(
  await Deno.readTextFile(new URL("./testdata/uia_recordings.json", import.meta.url)),
) as { notepad: Recorded; find: Recorded };

/** Serves a recording the way the COM adapter serves a cached element; counts reads. */
class RecordedElement implements CachedElement {
  static reads = 0;
  constructor(readonly recorded: Recorded) {}
  property(id: number): VariantValue {
    RecordedElement.reads++;
    return this.recorded.properties[String(id)] ?? { vt: "empty" };
  }
  children(): CachedElement[] {
    return this.recorded.children.map((c) => new RecordedElement(c));
  }
}

const OPTIONS = { maxNodes: 500, maxDepth: 30 };

Deno.test("buildUiaTree turns Notepad's cached subtree into roles, names, frames and pre-order parents", () => {
  const keys = new Map<string, CachedElement>();
  const tree = buildUiaTree(new RecordedElement(recordings.notepad), 4242, OPTIONS, (k, e) => keys.set(k, e));
  assert.equal(tree.truncated, false);
  assert.equal(tree.error, null);
  const rows = tree.nodes.map((n) => [n.depth, n.role, n.platformRole, n.name]);
  assert.deepEqual(rows.slice(0, 6), [
    [0, "window", "Window", "Untitled - Notepad"],
    [1, "title_bar", "TitleBar", ""],
    [2, "button", "Button", "Minimize"],
    [2, "button", "Button", "Maximize"],
    [2, "button", "Button", "Close"],
    [1, "menu_bar", "MenuBar", "Application"],
  ]);
  for (const [i, node] of tree.nodes.entries()) {
    if (i === 0) assert.equal(node.parent, -1);
    else {
      assert.ok(node.parent < i, "parents come first");
      assert.equal(tree.nodes[node.parent].depth, node.depth - 1);
    }
  }
  const edit = tree.nodes.find((n) => n.name === "Text Editor")!;
  assert.deepEqual([edit.role, edit.platformRole], ["text_field", "Edit"]);
  assert.equal(edit.value, "hello world");
  assert.equal(edit.editable, true);
  assert.equal(edit.focused, true);
  assert.deepEqual(edit.interfaces, ["component", "text", "editable_text"]);
  assert.deepEqual(edit.frame, { x: 108, y: 150, width: 784, height: 520 });
  const file = tree.nodes.find((n) => n.name === "File")!;
  assert.deepEqual([file.role, file.actions], ["menu_item", ["expand"]]);
  const close = tree.nodes.find((n) => n.name === "Close")!;
  assert.deepEqual(close.actions, ["invoke"]);
  assert.deepEqual(close.ref, {
    kind: "uia",
    hwnd: 4242,
    key: `4242:${tree.nodes.indexOf(close)}`,
    role: "button",
  });
  assert.equal(keys.size, tree.nodes.length, "every node's element is registered under its key");
});

Deno.test("buildUiaTree reads toggle, selection, range and offscreen state from the cache", () => {
  const tree = buildUiaTree(new RecordedElement(recordings.find), 7, OPTIONS, () => {});
  const by = (name: string) => tree.nodes.find((n) => n.name === name)!;
  assert.deepEqual([by("Match case").role, by("Match case").selected, by("Match case").actions], [
    "check_box",
    true,
    ["toggle"],
  ]);
  assert.equal(by("Wrap around").selected, false);
  assert.deepEqual([by("Down").role, by("Down").selected, by("Down").actions], ["radio_button", true, [
    "select",
  ]]);
  assert.equal(by("Up").selected, false);
  assert.deepEqual([by("Zoom").role, by("Zoom").value, by("Zoom").interfaces], ["slider", "40", [
    "component",
    "value",
  ]]);
  assert.equal(by("Hidden").showing, false);
  assert.equal(by("Hidden").frame, null, "an empty bounding rectangle is no frame");
  const label = tree.nodes.find((n) => n.role === "label")!;
  assert.equal(label.value, null, "a label without a value pattern has no value");
});

Deno.test("buildUiaTree stops at the node and depth budgets and says so", () => {
  const small = buildUiaTree(
    new RecordedElement(recordings.notepad),
    1,
    { maxNodes: 4, maxDepth: 30 },
    () => {},
  );
  assert.equal(small.nodes.length, 4);
  assert.equal(small.truncated, true);
  const shallow = buildUiaTree(
    new RecordedElement(recordings.notepad),
    1,
    { maxNodes: 500, maxDepth: 1 },
    () => {},
  );
  assert.ok(shallow.nodes.every((n) => n.depth <= 1));
  assert.equal(shallow.truncated, true);
});
