import assert from "node:assert/strict";
import { AppTree } from "./app_tree.ts";
import { CACHE_ITEM_SIGNATURE, fromCacheItem, type RawNode } from "./raw_node.ts";
import { shortInterfaceNames } from "./interfaces.ts";

function node(path: string, parent: string | null, index: number): RawNode {
  return {
    path,
    parent,
    index,
    childCount: 0,
    interfaces: [],
    name: path,
    role: 0,
    description: "",
    states: [0, 0],
  };
}

Deno.test("AppTree orders children by index, unindexed ones last in arrival order", () => {
  const tree = new AppTree([
    node("/r", null, -1),
    node("/c", "/r", 2),
    node("/x", "/r", -1),
    node("/a", "/r", 0),
    node("/y", "/r", -1),
    node("/b", "/r", 1),
  ]);
  assert.deepEqual(tree.children("/r").map((n) => n.path), ["/a", "/b", "/c", "/x", "/y"]);
  assert.ok(tree.hasUnorderedChildren("/r"));
  assert.deepEqual(tree.children("/a"), []);
});

Deno.test("AppTree prefers a fetched GetChildren order and skips unknown paths", () => {
  const tree = new AppTree([node("/r", null, -1), node("/a", "/r", 0), node("/b", "/r", 1)]);
  tree.setChildren("/r", ["/b", "/gone", "/a"]);
  assert.deepEqual(tree.children("/r").map((n) => n.path), ["/b", "/a"]);
  tree.add([node("/gone", "/r", 5)]);
  assert.deepEqual(tree.children("/r").map((n) => n.path), ["/b", "/gone", "/a"]);
  assert.equal(tree.size, 4);
});

Deno.test("fromCacheItem decodes a Cache.GetItems row", () => {
  assert.equal(CACHE_ITEM_SIGNATURE, "((so)(so)(so)iiassusau)");
  const row = [
    [":1.0", "/org/a11y/atspi/accessible/237"],
    [":1.0", "/org/a11y/atspi/accessible/root"],
    [":1.0", "/org/a11y/atspi/accessible/8"],
    0,
    0,
    ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action"],
    "Volume Up",
    43,
    "Increases the volume",
    [1090521344, 0],
  ];
  assert.deepEqual(fromCacheItem(row), {
    path: "/org/a11y/atspi/accessible/237",
    parent: "/org/a11y/atspi/accessible/8",
    index: 0,
    childCount: 0,
    interfaces: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Action"],
    name: "Volume Up",
    role: 43,
    description: "Increases the volume",
    states: [1090521344, 0],
  });
  const root = fromCacheItem([
    [":1.0", "/org/a11y/atspi/accessible/root"],
    [":1.0", "/org/a11y/atspi/accessible/root"],
    ["", "/org/a11y/atspi/null"],
    -1,
    1,
    [],
    "app",
    75,
    "",
    [0, 0],
  ]);
  assert.equal(root?.parent, null);
  // The old (pre-2.x) row shape with a children list is refused.
  assert.equal(fromCacheItem([["a", "/a"], ["a", "/"], ["a", "/p"], [], [], "n", 1, "", [0, 0]]), null);
});

Deno.test("shortInterfaceNames maps D-Bus interface names to snapshot names", () => {
  assert.deepEqual(
    shortInterfaceNames([
      "org.a11y.atspi.Accessible",
      "org.a11y.atspi.Action",
      "org.a11y.atspi.EditableText",
      "org.a11y.atspi.Text",
      "org.a11y.atspi.Value",
      "org.a11y.atspi.Component",
      "org.a11y.atspi.Selection",
      "org.example.Unknown",
    ]),
    ["action", "editable_text", "text", "value", "component", "selection"],
  );
});
