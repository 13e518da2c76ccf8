import assert from "node:assert/strict";
import { type FakeElement, fakeElement } from "../../src/backends/fake/mod.ts";
import type { AxRole, AxTree } from "../../src/ports/accessibility.ts";
import invoke_menu from "./invoke_menu.ts";
import { type NodeSpec, PID, textOf, toolKit, treeOf, WINDOW } from "./_test_kit.ts";

const target = { pid: PID, window_id: WINDOW };

/** frame > menu bar > Window (menu) > Arrange (menu) > Left / Right, plus View > Grid (check item). */
function menuApp(options: { lazy?: boolean; disabled?: string; duplicate?: string; padding?: string } = {}) {
  const refs: Record<string, FakeElement> = {};
  const item = (role: AxRole, name: string, children?: NodeSpec[]): NodeSpec => {
    refs[name] ??= fakeElement({ actions: ["click"], toggleable: role === "check_menu_item" });
    return {
      role,
      name: name + (options.padding ?? ""),
      ref: refs[name],
      actions: [],
      showing: false,
      enabled: name !== options.disabled,
      children,
    };
  };
  const tree = (): AxTree => {
    // Lazy toolkits expose a menu's items only once it was opened.
    const open = (name: string) => !options.lazy || (refs[name]?.activations ?? 0) > 0;
    const arrange = open("Arrange") ? [item("menu_item", "Left"), item("menu_item", "Right")] : [];
    const windowItems = open("Window") ? [item("menu", "Arrange", arrange)] : [];
    if (options.duplicate) windowItems.push(item("menu_item", options.duplicate));
    return treeOf({
      role: "window",
      platformRole: "frame",
      name: "App",
      children: [{
        role: "menu_bar",
        platformRole: "menu bar",
        children: [
          item("menu", "Window", windowItems),
          item("menu", "View", [
            { role: "separator", platformRole: "separator" },
            item("check_menu_item", "Grid"),
          ]),
        ],
      }, { role: "button", platformRole: "push button", name: "OK", actions: ["click"] }],
    });
  };
  return { refs, tree };
}

Deno.test("invoke_menu tool activates the final item of an exposed path without opening menus", async () => {
  const kit = toolKit([invoke_menu]);
  const app = menuApp();
  kit.serveTrees(app.tree);
  kit.fake.actionsChangeApp = true;
  const result = await kit.call("invoke_menu", { ...target, path: ["Window", "Arrange", "Left"] });
  assert.equal(result.isError, undefined, textOf(result));
  assert.deepEqual(result.structuredContent, {
    effect: "confirmed",
    route: "accessibility",
    delivery: { mode: "background", delivered_count: 1 },
    evidence: [{ kind: "window_change" }],
  });
  assert.equal(app.refs.Left.activations, 1);
  assert.equal(app.refs.Window.activations, 0, "an exposed level is not popped up");
  assert.equal(app.refs.Arrange.activations, 0);
  assert.match(textOf(result), /Window > Arrange > Left/);
});

Deno.test("invoke_menu tool opens each level whose items are not exposed yet, re-reading the tree", async () => {
  const kit = toolKit([invoke_menu]);
  const app = menuApp({ lazy: true });
  kit.serveTrees(app.tree);
  const result = await kit.call("invoke_menu", { ...target, path: ["Window", "Arrange", "Right"] });
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(app.refs.Window.activations, 1);
  assert.equal(app.refs.Arrange.activations, 1);
  assert.equal(app.refs.Right.activations, 1);
  assert.deepEqual(result.structuredContent?.delivery, { mode: "background", delivered_count: 3 });
  assert.ok(kit.fake.calls.filter((c) => c === "accessibility.tree").length >= 3, "a fresh tree per hop");
});

Deno.test("invoke_menu tool refuses a missing segment with the items available at that level", async () => {
  const kit = toolKit([invoke_menu]);
  const app = menuApp();
  kit.serveTrees(app.tree);
  const result = await kit.call("invoke_menu", { ...target, path: ["Window", "Nope"] });
  assert.equal(result.isError, true);
  const envelope = result.structuredContent!;
  assert.equal(envelope.code, "menu_path_unavailable");
  assert.equal(envelope.status, "refused");
  assert.equal(envelope.segment, "Nope");
  assert.equal(envelope.segment_index, 1);
  assert.equal(envelope.reason, "missing");
  assert.deepEqual(envelope.available, ["Arrange"]);
  assert.match(String(envelope.message), /"Nope".*available: "Arrange"/);
  assert.ok(!kit.fake.calls.some((c) => c.startsWith("ax.doAction")), "nothing was invoked");
});

Deno.test("invoke_menu tool refuses disabled, ambiguous and submenu segments", async () => {
  const disabled = toolKit([invoke_menu]);
  disabled.serveTrees(menuApp({ disabled: "Arrange" }).tree);
  const off = await disabled.call("invoke_menu", { ...target, path: ["Window", "Arrange", "Left"] });
  assert.equal(off.structuredContent?.code, "menu_path_unavailable");
  assert.equal(off.structuredContent?.reason, "disabled");

  const twice = toolKit([invoke_menu]);
  twice.serveTrees(menuApp({ duplicate: "Arrange" }).tree);
  const ambiguous = await twice.call("invoke_menu", { ...target, path: ["Window", "Arrange", "Left"] });
  assert.equal(ambiguous.structuredContent?.reason, "ambiguous");
  assert.equal(ambiguous.structuredContent?.segment_index, 1);

  const sub = toolKit([invoke_menu]);
  sub.serveTrees(menuApp().tree);
  const submenu = await sub.call("invoke_menu", { ...target, path: ["Window", "Arrange"] });
  assert.equal(submenu.structuredContent?.reason, "submenu");
  assert.deepEqual(submenu.structuredContent?.available, ["Left", "Right"]);
  for (const kit of [disabled, twice, sub]) {
    assert.ok(!kit.fake.calls.some((c) => c.startsWith("ax.doAction")));
  }
});

Deno.test("invoke_menu tool closes the menus it opened when a later segment is missing", async () => {
  const kit = toolKit([invoke_menu]);
  const app = menuApp({ lazy: true });
  kit.serveTrees(app.tree);
  const result = await kit.call("invoke_menu", { ...target, path: ["Window", "Nope"] });
  assert.equal(result.structuredContent?.code, "menu_path_unavailable");
  assert.equal(result.structuredContent?.opened_levels, 1);
  assert.equal(app.refs.Window.activations, 1);
  assert.ok(kit.fake.calls.includes("keyboard.global.press Escape"), kit.fake.calls.join("\n"));
});

Deno.test("invoke_menu tool confirms a check menu item by its flipped state", async () => {
  const kit = toolKit([invoke_menu]);
  const app = menuApp();
  kit.serveTrees(app.tree);
  const result = await kit.call("invoke_menu", { ...target, path: ["View", "Grid"] });
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(result.structuredContent?.effect, "confirmed");
  assert.deepEqual(result.structuredContent?.evidence, [{ kind: "value_readback" }]);
  assert.equal(app.refs.Grid.checked, true);
});

Deno.test("invoke_menu tool refuses a window without a menu bar and bad paths before reading anything", async () => {
  const kit = toolKit([invoke_menu]);
  kit.serveTrees(() =>
    treeOf({
      role: "window",
      platformRole: "frame",
      children: [{ role: "button", platformRole: "push button", name: "OK" }],
    })
  );
  const none = await kit.call("invoke_menu", { ...target, path: ["File"] });
  assert.equal(none.structuredContent?.reason, "no_menu_bar");

  for (const path of [[], [""], Array(17).fill("x")]) {
    const bad = await kit.call("invoke_menu", { ...target, path });
    assert.equal(bad.structuredContent?.code, "invalid_arguments", JSON.stringify(path));
    assert.match(String(bad.structuredContent?.field), /^path/);
  }
});

Deno.test("invoke_menu tool matches item names without the padding toolkits add for accelerators", async () => {
  const kit = toolKit([invoke_menu]);
  const app = menuApp({ padding: "      " });
  kit.serveTrees(app.tree);
  const result = await kit.call("invoke_menu", { ...target, path: ["Window", "Arrange", "Left"] });
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(app.refs.Left.activations, 1);
  const missing = await kit.call("invoke_menu", { ...target, path: ["Window", "Nope"] });
  assert.deepEqual(missing.structuredContent?.available, ["Arrange"], "available names are trimmed too");
});
