import assert from "node:assert/strict";
import type { AxTree } from "../../../ports/accessibility.ts";
import type { Rect } from "../../../ports/geometry.ts";
import { ActionNameCache } from "./action_cache.ts";
import { FAKE_APP, FakeApp, type FakeObject } from "./_fake_app.ts";
import { AtspiPath, Iface } from "./interfaces.ts";
import { State } from "./states.ts";
import { buildWindowTree, type WindowTreeOptions } from "./window_tree.ts";

const { ACTION, COMPONENT, TEXT, EDITABLE_TEXT, VALUE } = Iface;
const SHOWN = [State.ENABLED, State.SENSITIVE, State.VISIBLE, State.SHOWING];
const HIDDEN = [State.ENABLED, State.SENSITIVE];
const P = (id: string) => `/org/a11y/atspi/accessible/${id}`;

function app(overrides: Partial<Record<string, Partial<FakeObject>>> = {}): FakeApp {
  const objects: FakeObject[] = [
    { path: AtspiPath.ROOT, parent: null, role: 75, name: "demo" },
    {
      path: P("main"),
      parent: AtspiPath.ROOT,
      role: 23,
      name: "Main",
      states: SHOWN,
      interfaces: [COMPONENT],
      extents: [100, 80, 800, 630],
    },
    {
      path: P("prefs"),
      parent: AtspiPath.ROOT,
      role: 16,
      name: "Prefs",
      states: SHOWN,
      interfaces: [COMPONENT],
      extents: [300, 200, 400, 300],
    },
    {
      path: P("panel"),
      parent: P("main"),
      role: 39,
      states: SHOWN,
      interfaces: [COMPONENT],
      extents: [100, 110, 800, 600],
    },
    {
      path: P("ok"),
      parent: P("panel"),
      role: 43,
      name: "OK",
      states: SHOWN,
      interfaces: [ACTION, COMPONENT],
      extents: [120, 130, 80, 30],
      actions: [["click", "Click"]],
    },
    {
      path: P("wine"),
      parent: P("panel"),
      role: 7,
      name: "Wine",
      states: [...SHOWN, State.CHECKED, State.CHECKABLE],
      interfaces: [ACTION, COMPONENT],
      extents: [120, 170, 80, 20],
      actions: [["click", "Click"]],
    },
    {
      path: P("entry"),
      parent: P("panel"),
      role: 61,
      states: [...SHOWN, State.EDITABLE, State.FOCUSED, State.FOCUSABLE],
      interfaces: [ACTION, COMPONENT, TEXT, EDITABLE_TEXT],
      extents: [120, 200, 200, 30],
      actions: [["activate", ""]],
      text: "hello",
    },
    {
      path: P("slider"),
      parent: P("panel"),
      role: 51,
      states: SHOWN,
      interfaces: [COMPONENT, VALUE],
      extents: [120, 240, 200, 30],
      value: 42,
    },
    {
      path: P("combo"),
      parent: P("panel"),
      role: 11,
      name: "Fruit",
      states: SHOWN,
      interfaces: [ACTION, COMPONENT],
      extents: [120, 280, 200, 30],
      actions: [["press", "Press"]],
    },
    {
      path: P("menu"),
      parent: P("combo"),
      role: 33,
      states: HIDDEN,
      interfaces: [COMPONENT],
      unknownChildCount: true,
    },
    {
      path: P("apple"),
      parent: P("menu"),
      role: 35,
      name: "Apple",
      states: HIDDEN,
      interfaces: [ACTION, COMPONENT],
      unindexed: true,
      actions: [["click", "Click"]],
    },
    {
      path: P("pear"),
      parent: P("menu"),
      role: 35,
      name: "Pear",
      states: HIDDEN,
      interfaces: [ACTION, COMPONENT],
      unindexed: true,
      actions: [["click", "Click"]],
    },
    {
      path: P("table"),
      parent: P("panel"),
      role: 55,
      states: [...SHOWN, State.MANAGES_DESCENDANTS],
      interfaces: [COMPONENT],
      extents: [120, 320, 300, 200],
      unknownChildCount: true,
    },
    {
      path: P("c1"),
      parent: P("table"),
      role: 56,
      name: "Andrea",
      states: SHOWN,
      interfaces: [ACTION, COMPONENT],
      extents: [120, 320, 150, 20],
      actions: [["activate", "Activate"]],
      uncached: true,
    },
    {
      path: P("c2"),
      parent: P("table"),
      role: 56,
      name: "Otto",
      states: SHOWN,
      interfaces: [ACTION, COMPONENT],
      extents: [270, 320, 150, 20],
      actions: [["activate", "Activate"]],
      uncached: true,
    },
    {
      path: P("close"),
      parent: P("prefs"),
      role: 43,
      name: "Close",
      states: SHOWN,
      interfaces: [ACTION, COMPONENT],
      extents: [600, 450, 80, 30],
      actions: [["click", "Click"]],
    },
  ];
  return new FakeApp(objects.map((o) => ({ ...o, ...overrides[o.path] })));
}

function build(fake: FakeApp, bounds: Rect | null, extra: Partial<WindowTreeOptions> = {}): Promise<AxTree> {
  return buildWindowTree(fake, FAKE_APP, {
    maxNodes: 1000,
    maxDepth: 50,
    windowBounds: Promise.resolve(bounds),
    ...extra,
  });
}

function outline(tree: AxTree): string[] {
  return tree.nodes.map((n) => `${"  ".repeat(n.depth)}${n.platformRole}${n.name ? ` "${n.name}"` : ""}`);
}

/** X11 client bounds of the two windows (the frame's extents include a 30 px title bar). */
const MAIN = { x: 100, y: 110, width: 800, height: 600 };
const PREFS = { x: 300, y: 220, width: 400, height: 280 };

Deno.test("buildWindowTree picks the top level matching the window and lists it in pre-order", async () => {
  const tree = await build(app(), MAIN);
  assert.equal(tree.error, null);
  assert.equal(tree.truncated, false);
  assert.deepEqual(outline(tree), [
    'frame "Main"',
    "  panel",
    '    push button "OK"',
    '    check box "Wine"',
    "    text",
    "    slider",
    '    combo box "Fruit"',
    "      menu",
    '        menu item "Apple"',
    '        menu item "Pear"',
    "    table",
    '      table cell "Andrea"',
    '      table cell "Otto"',
  ]);
  assert.deepEqual(tree.nodes.map((n) => n.parent), [-1, 0, 1, 1, 1, 1, 1, 6, 7, 7, 1, 10, 10]);
  assert.deepEqual(tree.nodes[2].ref, { bus: FAKE_APP, path: P("ok") });
});

Deno.test("buildWindowTree picks the dialog for the dialog's bounds", async () => {
  const tree = await build(app(), PREFS);
  assert.deepEqual(outline(tree), ['dialog "Prefs"', '  push button "Close"']);
});

Deno.test("buildWindowTree falls back to the whole application when no top level matches", async () => {
  const tree = await build(app(), { x: 1500, y: 900, width: 100, height: 100 });
  assert.equal(tree.nodes[0].role, "application");
  assert.equal(tree.nodes.filter((n) => n.depth === 1).length, 2);
});

Deno.test("buildWindowTree fills frames, canonical actions, values and text of showing nodes", async () => {
  const fake = app();
  const tree = await build(fake, MAIN);
  const byName = (name: string) => tree.nodes.find((n) => n.name === name)!;
  const ok = byName("OK");
  assert.deepEqual(ok.frame, { x: 120, y: 130, width: 80, height: 30 });
  assert.deepEqual(ok.actions, ["click"]);
  assert.deepEqual(ok.interfaces, ["action", "component"]);
  assert.equal(ok.selected, null);
  const wine = byName("Wine");
  assert.equal(wine.platformRole, "check box");
  assert.equal(wine.role, "check_box");
  assert.equal(wine.selected, true);
  const entry = tree.nodes.find((n) => n.platformRole === "text")!;
  assert.equal(entry.value, "hello");
  assert.equal(entry.editable, true);
  assert.equal(entry.focused, true);
  assert.deepEqual(entry.actions, ["activate"]); // localized name was empty
  assert.equal(tree.nodes.find((n) => n.role === "slider")!.value, "42");
  assert.deepEqual(byName("Andrea").actions, ["activate"]);
  // Hidden nodes are listed without details, and cost no calls.
  const apple = byName("Apple");
  assert.equal(apple.showing, false);
  assert.equal(apple.frame, null);
  assert.deepEqual(apple.actions, []);
  assert.equal(apple.selected, false);
  assert.ok(!fake.calls.some((c) => c.endsWith(P("apple"))));
});

Deno.test("buildWindowTree with actionableDetailsOnly reads no frame or actions of passive or disabled objects", async () => {
  const fake = app({ [P("wine")]: { states: [State.VISIBLE, State.SHOWING, State.CHECKABLE] } });
  const tree = await build(fake, MAIN, { actionableDetailsOnly: true });
  const node = (role: string) => tree.nodes.find((n) => n.platformRole === role)!;
  const asked = (path: string, what: RegExp) => fake.calls.some((c) => what.test(c) && c.endsWith(path));
  // The top level's frame is read (it rebases window-relative coordinates); the panel's is not.
  assert.deepEqual(node("frame").frame, { x: 100, y: 80, width: 800, height: 630 });
  assert.equal(node("panel").frame, null);
  assert.ok(!asked(P("panel"), /^Component\./), fake.calls.join("\n"));
  // A disabled check box: neither frame nor actions.
  assert.equal(node("check box").frame, null);
  assert.ok(!asked(P("wine"), /^(Component|Action)\./));
  // What an agent can act on keeps everything, values and text too.
  assert.deepEqual(node("push button").frame, { x: 120, y: 130, width: 80, height: 30 });
  assert.deepEqual(node("push button").actions, ["click"]);
  assert.equal(node("text").value, "hello");
  assert.equal(node("slider").value, "42");
  // Without the option every showing object's frame is read.
  const full = await build(app(), MAIN);
  assert.deepEqual(full.nodes.find((n) => n.platformRole === "panel")!.frame, {
    x: 100,
    y: 110,
    width: 800,
    height: 600,
  });
});

Deno.test("buildWindowTree reads children the cache leaves out and orders unindexed ones", async () => {
  const fake = app();
  await build(fake, MAIN);
  assert.ok(fake.calls.includes(`Accessible.GetChildren ${P("table")}`));
  assert.ok(fake.calls.includes(`Accessible.GetRole ${P("c1")}`));
  // The hidden menu keeps the cache's order: no call for it.
  assert.ok(!fake.calls.includes(`Accessible.GetChildren ${P("menu")}`));
  // A showing one gets its GetChildren order.
  const open = app({ [P("menu")]: { states: SHOWN } });
  await build(open, MAIN);
  assert.ok(open.calls.includes(`Accessible.GetChildren ${P("menu")}`));
});

Deno.test("buildWindowTree walks object by object when the application has no cache", async () => {
  const cached = await build(app(), MAIN);
  const fake = app();
  fake.hasCache = false;
  const walked = await build(fake, MAIN);
  assert.deepEqual(outline(walked), outline(cached));
  assert.deepEqual(walked.nodes.map((n) => n.frame), cached.nodes.map((n) => n.frame));
});

Deno.test("buildWindowTree stops at maxNodes and maxDepth", async () => {
  const small = await build(app(), MAIN, { maxNodes: 4 });
  assert.equal(small.truncated, true);
  assert.equal(small.nodes.length, 4);
  assert.equal(small.totalNodes, 13, "the cut tree says how many nodes the window has");
  assert.equal((await build(app(), MAIN)).totalNodes, 13);
  const shallow = await build(app(), MAIN, { maxDepth: 1 });
  assert.equal(shallow.truncated, true);
  assert.deepEqual(outline(shallow), ['frame "Main"', "  panel"]);
});

Deno.test("buildWindowTree rebases frames of a top level that reports window-relative coordinates", async () => {
  // One top level whose "screen" origin is (0, 0) while the X11 window sits at (500, 400).
  const fake = app({
    [P("prefs")]: { parent: "/nowhere" },
    [P("main")]: { extents: [0, 0, 800, 600] },
    [P("ok")]: { extents: [20, 20, 80, 30] },
  });
  const tree = await build(fake, { x: 500, y: 400, width: 800, height: 600 });
  assert.deepEqual(tree.nodes[0].frame, { x: 500, y: 400, width: 800, height: 600 });
  assert.deepEqual(tree.nodes.find((n) => n.name === "OK")!.frame, { x: 520, y: 420, width: 80, height: 30 });
});

Deno.test("buildWindowTree reuses cached action names on the next snapshot", async () => {
  const fake = app();
  const actionCache = new ActionNameCache();
  await build(fake, MAIN, { actionCache });
  const first = fake.calls.filter((c) => c.startsWith("Action.")).length;
  fake.calls.length = 0;
  const again = await build(fake, MAIN, { actionCache });
  assert.ok(first > 0);
  assert.equal(fake.calls.filter((c) => c.startsWith("Action.")).length, 0);
  assert.deepEqual(again.nodes.find((n) => n.name === "OK")!.actions, ["click"]);
});

Deno.test("buildWindowTree rejects with the signal's reason when aborted", async () => {
  const controller = new AbortController();
  controller.abort(new Error("stop"));
  await assert.rejects(build(app(), MAIN, { signal: controller.signal }), /stop/);
});
