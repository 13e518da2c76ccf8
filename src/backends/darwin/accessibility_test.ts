/** The macOS accessibility facility against the fake frameworks. */
import assert from "node:assert/strict";
import type { AxNode } from "../../ports/accessibility.ts";
import { fakeMacBackend } from "./_fake/harness.ts";
import { MAC } from "./_fake/mod.ts";
import { adopt, element } from "./_fake/world.ts";
import { GENERATIONS_KEPT, MENU_NODE_BUDGET } from "./accessibility.ts";

const ALL = { maxNodes: 2000, maxDepth: 25 };
const signal = new AbortController().signal;

type Platformed = AxNode & { platformRole: string };

function find(nodes: AxNode[], predicate: (node: Platformed) => boolean): Platformed {
  const node = (nodes as Platformed[]).find(predicate);
  assert.ok(node, "node not found");
  return node;
}

Deno.test("darwin accessibility reads a TextEdit window into neutral roles, one round trip per node", async () => {
  await using mac = fakeMacBackend();
  const tree = await mac.backend.accessibility.tree(MAC.textEdit, MAC.textEditWindow, ALL, signal);
  assert.equal(tree.error, null);
  assert.equal(tree.truncated, false);
  const [root] = tree.nodes as Platformed[];
  assert.deepEqual([root.role, root.platformRole, root.name, root.depth, root.parent], [
    "window",
    "AXWindow:AXStandardWindow",
    "Untitled.rtf",
    0,
    -1,
  ]);
  const text = find(tree.nodes, (n) => n.platformRole === "AXTextArea");
  assert.equal(text.role, "text_field");
  assert.equal(text.value, "Hello from TextEdit");
  assert.equal(text.editable, true);
  assert.equal(text.focused, true);
  assert.deepEqual(text.frame, { x: 200, y: 200, width: 785, height: 520 });
  assert.ok(text.interfaces.includes("editable_text"));
  assert.equal(tree.nodes[text.parent].role, "scroll_area");
  const close = find(tree.nodes, (n) => n.platformRole === "AXButton:AXCloseButton");
  assert.deepEqual(close.actions, ["AXPress"]);
  const bold = find(tree.nodes, (n) => n.name === "Bold");
  assert.deepEqual([bold.role, bold.selected, bold.value], ["check_box", false, null]);
  const font = find(tree.nodes, (n) => n.name === "Font family");
  assert.deepEqual([font.role, font.value], ["combo_box", "Helvetica"]);
  // One AXUIElementCopyMultipleAttributeValues per node: attributes are batched, never read one by one.
  assert.equal(mac.fake.callsOf("AXUIElementCopyMultipleAttributeValues").length, tree.nodes.length);
});

Deno.test("darwin accessibility maps the controls of a Cocoa form", async () => {
  await using mac = fakeMacBackend();
  const { nodes } = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  const roles = Object.fromEntries((nodes as Platformed[]).map((n) => [n.name || n.platformRole, n.role]));
  assert.equal(roles["Enable notifications"], "check_box");
  assert.equal(roles["Volume"], "slider");
  assert.equal(roles["Name"], "text_field");
  assert.equal(roles["Size"], "combo_box");
  assert.equal(roles["General"], "tab");
  assert.equal(roles["AXTabGroup"], "tab_list");
  assert.equal(roles["Help"], "link");
  assert.equal(roles["Logo"], "image");
  assert.equal(roles["AXTable"], "table");
  assert.equal(roles["AXRow"], "row");
  assert.equal(roles["OK"], "button");
  const password = find(nodes, (n) => n.name === "Password");
  assert.equal(password.value, null, "a secure text field's value is never read out");
  const volume = find(nodes, (n) => n.name === "Volume");
  assert.equal(volume.value, "50");
  assert.ok(volume.interfaces.includes("value"));
  const alpha = find(nodes, (n) => n.role === "row" && n.selected === true);
  assert.ok(alpha);
});

Deno.test("darwin accessibility honours the node and depth budgets", async () => {
  await using mac = fakeMacBackend();
  const few = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, {
    maxNodes: 5,
    maxDepth: 25,
  }, signal);
  assert.equal(few.nodes.length, 5);
  assert.equal(few.truncated, true);
  const shallow = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, {
    maxNodes: 2000,
    maxDepth: 1,
  }, signal);
  assert.ok(shallow.nodes.every((n) => n.depth <= 1));
  assert.equal(shallow.truncated, true);
});

Deno.test("darwin accessibility acts on elements: press, set value, insert text, focus", async () => {
  await using mac = fakeMacBackend();
  const { nodes } = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  const ax = mac.backend.accessibility;
  const world = mac.fake.world;
  const check = find(nodes, (n) => n.name === "Enable notifications");
  assert.equal(await ax.doAction(check.ref, "AXPress"), true);
  assert.equal(
    world.named(MAC.controls, "Enable notifications").value,
    0,
    "the app's own checkbox was unchecked",
  );
  assert.deepEqual((await ax.state(check.ref)).checked, false);
  await assert.rejects(ax.doAction(check.ref, "AXShowMenu"), /no action "AXShowMenu"/);

  const ok = find(nodes, (n) => n.name === "OK");
  await ax.doAction(ok.ref, "AXPress");
  assert.equal(
    world.named(MAC.controls, "OK").parent!.children.find((c) => c.value === "OK pressed")?.value,
    "OK pressed",
  );

  const volume = find(nodes, (n) => n.name === "Volume");
  await ax.setValue(volume.ref, 80);
  assert.equal(world.named(MAC.controls, "Volume").value, 80);
  assert.deepEqual(await ax.value(volume.ref), { current: 80, min: 0, max: 100, step: 0 });

  const name = find(nodes, (n) => n.name === "Name");
  assert.equal(await ax.insertText(name.ref, 0, "Lady "), true);
  assert.equal(world.named(MAC.controls, "Name").value, "Lady Ada");
  assert.equal(await ax.caretOffset(name.ref), 5);
  assert.equal(await ax.setText(name.ref, "Grace"), true);
  assert.equal(await ax.text(name.ref), "Grace");
  assert.equal(await ax.grabFocus(name.ref), true);
  assert.equal(world.app(MAC.controls)!.focused?.description, "Name");
  const state = await ax.state(name.ref);
  assert.deepEqual([state.focused, state.editable, state.enabled, state.toggleable], [
    true,
    true,
    true,
    false,
  ]);
  assert.deepEqual(await ax.frame(name.ref), { x: 1120, y: 420, width: 200, height: 22 });

  const label = find(nodes, (n) => n.role === "label" && n.value === "Ready");
  await assert.rejects(ax.setValue(label.ref, 3), /did not accept/);
});

Deno.test("darwin accessibility releases old snapshots: their tokens go stale", async () => {
  await using mac = fakeMacBackend();
  const first = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  for (let i = 0; i < GENERATIONS_KEPT; i++) {
    await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  }
  const error = await mac.backend.accessibility.frame(first.nodes[0].ref).catch((e) => e);
  assert.equal(error.code, "stale_element_token");
  assert.equal((await mac.backend.accessibility.frame({}).catch((e) => e)).code, "invalid_element_token");
  // Only the kept generations hold element references (besides the system-wide element).
  const held = mac.fake.heap.live("AXUIElement").filter((o) =>
    o.owned > 0 && o.origin !== "AXUIElementCreateSystemWide"
  );
  assert.equal(held.length, GENERATIONS_KEPT * first.nodes.length);
});

Deno.test("darwin accessibility reports a destroyed element and a hung app precisely", async () => {
  await using mac = fakeMacBackend();
  const { nodes } = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  const ok = find(nodes, (n) => n.name === "OK");
  mac.fake.world.named(MAC.controls, "OK").alive = false;
  assert.equal(
    (await mac.backend.accessibility.doAction(ok.ref, "AXPress").catch((e) => e)).code,
    "stale_element_token",
  );
  mac.fake.world.app(MAC.controls)!.hung = true;
  // The fake fails the test if no messaging timeout was set before messaging a hung app.
  const hung = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal).catch((
    e,
  ) => e);
  assert.equal(hung.code, "timeout");
  assert.match(hung.message, /did not answer within 2 s/);
});

Deno.test("darwin accessibility refuses without the Accessibility grant", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.accessibilityTrusted = false;
  const error = await mac.backend.accessibility.tree(MAC.textEdit, MAC.textEditWindow, ALL, signal).catch((
    e,
  ) => e);
  assert.equal(error.code, "permission_denied");
  assert.match(String(error.data.hint), /Privacy_Accessibility/);
});

Deno.test("darwin accessibility reports a window the app does not expose", async () => {
  await using mac = fakeMacBackend();
  const tree = await mac.backend.accessibility.tree(MAC.dock, 90, ALL, signal);
  assert.deepEqual(tree.nodes, []);
  assert.match(tree.error ?? "", /exposes no accessibility window/);
  assert.equal(
    (await mac.backend.accessibility.tree(MAC.textEdit, 777, ALL, signal).catch((e) => e)).code,
    "window_stale",
  );
});

Deno.test("darwin accessibility asks Chromium for its web content tree once", async () => {
  await using mac = fakeMacBackend();
  const first = await mac.backend.accessibility.tree(MAC.chrome, MAC.chromeWindow, ALL, signal);
  assert.ok(first.nodes.some((n) => n.name === "Search Google"), "the web content is in the first snapshot");
  await mac.backend.accessibility.tree(MAC.chrome, MAC.chromeWindow, ALL, signal);
  const sets = mac.fake.callsOf("AXUIElementSetAttributeValue");
  assert.equal(sets.length, 1);
  assert.equal(
    mac.fake.heap.peek(BigInt(Deno.UnsafePointer.value(sets[0].args[1] as Deno.PointerObject)))?.value,
    "AXManualAccessibility",
  );
});

Deno.test("darwin accessibility reads the app's menu bar after the window, within its own budget", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const file = world.named(MAC.textEdit, "File").children[0];
  adopt(
    file,
    Array.from({ length: 600 }, (_, i) => element(MAC.textEdit, "AXMenuItem", { title: `Recent ${i}` })),
  );
  const tree = await mac.backend.accessibility.tree(MAC.textEdit, MAC.textEditWindow, ALL, signal);
  const bar = tree.nodes.findIndex((n) => n.role === "menu_bar");
  assert.ok(bar > 0, "the menu bar is in the tree");
  assert.equal(tree.nodes[bar].parent, 0, "as the window's last child");
  assert.ok(
    tree.nodes.slice(0, bar).some((n) => n.value === "Hello from TextEdit"),
    "window content comes first",
  );
  assert.equal(tree.nodes.length - bar, MENU_NODE_BUDGET);
  assert.equal(tree.truncated, true);
});

Deno.test("darwin accessibility keeps what it read when the app stops answering mid-walk", async () => {
  await using mac = fakeMacBackend();
  mac.fake.world.app(MAC.controls)!.hangAfter = 12;
  const tree = await mac.backend.accessibility.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  assert.ok(tree.nodes.length > 0 && tree.nodes[0].role === "window", "the nodes read before the hang");
  assert.equal(tree.truncated, true);
  assert.match(tree.error ?? "", /did not answer within 2 s/);
});

Deno.test("darwin accessibility keeps an element alive across its own awaited calls while newer snapshots release it", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const a11y = mac.backend.accessibility;
  const first = await a11y.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
  const box = find(first.nodes, (n) => n.name === "Enable notifications");
  // The app answers the action-name query only after GENERATIONS_KEPT newer snapshots were taken,
  // which release the first snapshot's references while doAction is still awaiting.
  const ax = mac.fake.frameworks.ax as {
    AXUIElementCopyActionNames: (...args: unknown[]) => Promise<number>;
  };
  const original = ax.AXUIElementCopyActionNames;
  let stalled = true;
  ax.AXUIElementCopyActionNames = async (...args: unknown[]) => {
    const status = await original(...args);
    if (stalled) {
      stalled = false;
      for (let i = 0; i < GENERATIONS_KEPT; i++) {
        await a11y.tree(MAC.controls, MAC.controlsWindow, ALL, signal);
      }
    }
    return status;
  };
  assert.equal(await a11y.doAction(box.ref, "AXPress"), true);
  assert.equal(world.named(MAC.controls, "Enable notifications").value, 0, "the app's checkbox toggled");
  assert.deepEqual(mac.fake.heap.violations, [], "no call used a released element");
});
