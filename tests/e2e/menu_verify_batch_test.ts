/**
 * invoke_menu, verify_state and run_actions against the GTK3 fixture on the shared test
 * desktop, through the same registry every transport dispatches to. The fixture's journal
 * is the oracle for what happened; its `key=value` labels are what verify_state reads.
 *
 * @module
 */
import assert from "node:assert/strict";
import { DriverError } from "../../src/ports/errors.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import type { AxNode, AxTree } from "../../src/ports/accessibility.ts";
import type { Backend } from "../../src/ports/backend.ts";
import type { RawKeyboard } from "../../src/ports/input.ts";
import { startRuntime } from "../../src/runtime.ts";
import get_window_state from "../../tools/windows/get_window_state.ts";
import click from "../../tools/input/click.ts";
import invoke_menu from "../../tools/accessibility/invoke_menu.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";

const ignore = Deno.build.os !== "linux" || ignoreWithoutDesktop();

// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

async function driver() {
  const configDir = await Deno.makeTempDir({ prefix: "cua-test-config-" });
  Deno.env.set("CUA_DRIVER_CONFIG_DIR", configDir);
  const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
  const lease = `e2e-${crypto.randomUUID()}`;
  const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    runtime.registry.call(name, args, { lease, transport: "cli", timeoutMs: 20_000 });
  const text = (result: ToolResult) =>
    result.content.map((p) => p.type === "text" ? p.text : "[image]").join(" ");
  return {
    runtime,
    call,
    text,
    async ok(name: string, args: Record<string, unknown>): Promise<Structured> {
      const result = await call(name, args);
      assert.equal(result.isError, undefined, `${name}: ${text(result).slice(0, 800)}`);
      return result.structuredContent as Structured;
    },
    async close() {
      await runtime.close();
      await Deno.remove(configDir, { recursive: true }).catch(() => {});
    },
  };
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, Math.round(performance.now() - started)];
}

const events = async (app: FixtureApp, event: string) =>
  (await app.readJournal()).filter((e) => e.event === event);

Deno.test({
  name:
    "invoke_menu tool invokes Window > Arrange > Left and refuses a missing segment, leaving no menu open",
  ignore,
  async fn(t) {
    const d = await driver();
    const app = await startFixture(desktopEnv());
    const target = { pid: app.pid, window_id: app.xid };
    try {
      await t.step("an exact path is invoked through AT-SPI", async () => {
        const [result, ms] = await timed(() =>
          d.ok("invoke_menu", { ...target, path: ["Window", "Arrange", "Left"] })
        );
        // The fixture shows the menu action in a label: the witness sees the app change.
        assert.deepEqual(result, {
          effect: "confirmed",
          route: "accessibility",
          delivery: { mode: "background", delivered_count: 1 },
          evidence: [{ kind: "window_change" }],
        });
        const entry = await app.waitFor((e) => e.event === "menu", 3000);
        assert.equal(entry.menu_action, "Window/Arrange/Left");
        console.log(`invoke_menu Window > Arrange > Left: ${ms} ms`);
      });

      await t.step("a missing segment is refused, naming it and the items at its level", async () => {
        const before = (await app.readJournal()).length;
        const [result, ms] = await timed(() =>
          d.call("invoke_menu", { ...target, path: ["Window", "Nope"] })
        );
        assert.equal(result.isError, true);
        const envelope = result.structuredContent as Structured;
        assert.equal(envelope.code, "menu_path_unavailable");
        assert.equal(envelope.status, "refused");
        assert.equal(envelope.refusal.code, "menu_path_unavailable");
        assert.deepEqual([envelope.segment, envelope.segment_index, envelope.reason], ["Nope", 1, "missing"]);
        assert.deepEqual(envelope.available, ["Arrange"]);
        const submenu = await d.call("invoke_menu", { ...target, path: ["Window", "Arrange"] });
        assert.equal((submenu.structuredContent as Structured).reason, "submenu");
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal((await app.readJournal()).length, before, "the journal is unchanged");
        console.log(`invoke_menu Window > Nope refused in ${ms} ms`);
      });

      await t.step(
        "no menu is left open: the Window menu is not selected and a pixel click lands",
        async () => {
          const state = await d.ok("verify_state", {
            ...target,
            expect: [{ element: { selector: { role: "menu", label_contains: "Window" }, selected: false } }],
          });
          assert.equal(state.status, "satisfied", JSON.stringify(state));
          await d.ok("get_window_state", { ...target, include_screenshot: true });
          const button = app.widgets["btn-increment"];
          const at = { x: button.x + button.width / 2, y: button.y + button.height / 2 };
          await d.ok("click", { ...target, ...at });
          const click = await app.waitFor((e) => e.event === "click", 3000);
          assert.equal(click.counter, 1, "an open popup's grab would have swallowed the click");
        },
      );

      await t.step("the pixel-click probe does notice an open menu (control)", async () => {
        const ax = d.runtime.registry.backend.accessibility;
        const tree = await ax.tree(
          app.pid,
          app.xid,
          { maxNodes: 5000, maxDepth: 64 },
          AbortSignal.timeout(5000),
        );
        const menu = tree.nodes.find((n) => n.platformRole === "menu" && n.name === "Window")!;
        await ax.doAction(menu.ref, "click"); // pops the menu up, with its grab
        await new Promise((resolve) => setTimeout(resolve, 300));
        const clicks = (await events(app, "click")).length;
        const button = app.widgets["btn-increment"];
        await d.ok("get_window_state", { ...target, include_screenshot: true });
        await d.ok("click", { ...target, x: button.x + button.width / 2, y: button.y + button.height / 2 });
        await new Promise((resolve) => setTimeout(resolve, 400));
        assert.equal(
          (await events(app, "click")).length,
          clicks,
          "the open menu took the click (and closed)",
        );
      });
    } finally {
      await app.stop();
      await d.close();
    }
  },
});

Deno.test({
  name: "verify_state and run_actions tools check and batch actions on the GTK3 fixture",
  ignore,
  async fn(t) {
    const d = await driver();
    const app = await startFixture(desktopEnv());
    const target = { pid: app.pid, window_id: app.xid };
    const session = "batch";
    try {
      await t.step("verify_state reads labels, states and the window frame", async () => {
        const window = (await d.ok("list_windows", { pid: app.pid })).windows.find((w: Structured) =>
          w.window_id === app.xid
        );
        const [state, ms] = await timed(() =>
          d.ok("verify_state", {
            ...target,
            expect: [
              {
                element: {
                  selector: { role: "label", label_contains: "counter=" },
                  value_equals: "counter=0",
                },
              },
              { element: { selector: { label_contains: "chk-agree" }, selected: false, enabled: true } },
              { window: { exists: true, bounds: { ...window.bounds, tolerance_px: 0 } } },
            ],
          })
        );
        assert.equal(state.status, "satisfied", JSON.stringify(state));
        assert.equal(state.stable, true);
        assert.equal(state.samples, 2);
        console.log(`verify_state (3 predicates, 2 samples): ${ms} ms, elapsed_ms=${state.elapsed_ms}`);
      });

      await t.step(
        "verify_state says multi_match and unsatisfied honestly, and samples once with timeout_ms 0",
        async () => {
          const [state, ms] = await timed(() =>
            d.ok("verify_state", {
              ...target,
              expect: [
                { element: { selector: { role: "push button" }, enabled: true } },
                { element: { selector: { label_contains: "counter=" }, value_equals: "counter=7" } },
              ],
              timeout_ms: 300,
            })
          );
          assert.equal(state.status, "unsatisfied");
          assert.deepEqual(
            state.predicates.map((p: Structured) => [p.status, p.unknown_reason]),
            [["unknown", "multi_match"], ["unsatisfied", null]],
          );
          assert.equal(JSON.parse(state.predicates[1].observed_json).value, "counter=0");
          console.log(`verify_state with a 300 ms budget answered in ${ms} ms`);
          const once = await d.ok("verify_state", {
            ...target,
            expect: [{ element: { selector: { label_contains: "counter=0" } } }],
            timeout_ms: 0,
          });
          assert.deepEqual([once.status, once.samples], ["satisfied", 1]);
        },
      );

      await t.step("run_actions clicks twice and invokes a menu in one call, then observes", async () => {
        const snapshot = await d.ok("get_window_state", { ...target, include_screenshot: false, session });
        const token = snapshot.elements.find((e: Structured) => e.label === "btn-increment").element_token;
        const [batch, ms] = await timed(() =>
          d.ok("run_actions", {
            session,
            actions: [
              { tool: "click", arguments: { element_token: token } },
              { tool: "click", arguments: { element_token: token } },
              { tool: "invoke_menu", arguments: { ...target, path: ["Window", "Arrange", "Right"] } },
            ],
            observe: { ...target, include_screenshot: true },
          })
        );
        assert.deepEqual([batch.completed, batch.failed_index], [3, null], JSON.stringify(batch.results));
        assert.equal(batch.observation.is_error, false);
        assert.ok(batch.observation.elements.some((e: { label: string }) => e.label === "btn-increment"));
        assert.ok(batch.observation.screenshot_width > 0);
        console.log(`run_actions (3 actions + observation with screenshot): ${ms} ms`);

        const [state, verifyMs] = await timed(() =>
          d.ok("verify_state", {
            ...target,
            session,
            expect: [
              { element: { selector: { label_contains: "counter=" }, value_equals: "counter=2" } },
              {
                element: {
                  selector: { label_contains: "menu_action=" },
                  value_equals: "menu_action=Window/Arrange/Right",
                },
              },
            ],
          })
        );
        assert.equal(state.status, "satisfied", JSON.stringify(state.predicates));
        console.log(`verify_state after the batch: ${verifyMs} ms, ${state.samples} samples`);
        const journal = await app.readJournal();
        assert.equal(journal.filter((e) => e.event === "click").length, 2);
        assert.equal(journal.at(-1)?.menu_action, "Window/Arrange/Right");
      });

      await t.step("run_actions stops at a failed action and still observes", async () => {
        const clicks = (await events(app, "click")).length;
        const snapshot = await d.ok("get_window_state", { ...target, include_screenshot: false, session });
        const token = snapshot.elements.find((e: Structured) => e.label === "btn-increment").element_token;
        const batch = await d.ok("run_actions", {
          session,
          actions: [
            { tool: "invoke_menu", arguments: { ...target, path: ["Window", "Nope"] } },
            { tool: "click", arguments: { element_token: token } },
          ],
          observe: target,
        });
        assert.deepEqual([batch.completed, batch.failed_index, batch.attempted], [0, 0, 1]);
        assert.equal(batch.results[0].structured.code, "menu_path_unavailable");
        assert.equal(batch.observation.is_error, false);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal((await events(app, "click")).length, clicks, "the click after the failure did not run");
      });

      await t.step("bad input is refused naming the field, with nothing sent", async () => {
        const before = (await app.readJournal()).length;
        const cases: [string, Record<string, unknown>, string][] = [
          ["run_actions", { actions: [{ tool: "clack", arguments: {} }] }, "actions.0.tool"],
          ["run_actions", { actions: [{ tool: "click", arguments: 5 }] }, "actions.0.arguments"],
          ["invoke_menu", { ...target, path: [] }, "path"],
          ["verify_state", { ...target, expect: [{ window: {} }], timeout_ms: 20_000 }, "timeout_ms"],
        ];
        for (const [tool, args, field] of cases) {
          const result = await d.call(tool, args);
          const envelope = result.structuredContent as Structured;
          assert.deepEqual([envelope.code, envelope.field], ["invalid_arguments", field], d.text(result));
        }
        assert.equal((await app.readJournal()).length, before);
      });
    } finally {
      await app.stop();
      await d.close();
    }
  },
});

/** Drops the hidden items under the menu bar, as toolkits that build menus on opening (Qt, GTK4) show them. */
function lazyMenus(tree: AxTree): AxTree {
  const keep: number[] = [];
  const newIndex = new Map<number, number>();
  const underBar = (i: number): boolean => {
    for (let p = tree.nodes[i].parent; p >= 0; p = tree.nodes[p].parent) {
      if (tree.nodes[p].platformRole === "menu bar") return true;
    }
    return false;
  };
  tree.nodes.forEach((node, i) => {
    if (node.parent >= 0 && !newIndex.has(node.parent)) return; // its parent was dropped
    if (!node.showing && underBar(i)) return;
    newIndex.set(i, keep.push(i) - 1);
  });
  const nodes = keep.map((i): AxNode => ({
    ...tree.nodes[i],
    parent: newIndex.get(tree.nodes[i].parent) ?? -1,
  }));
  return { ...tree, nodes };
}

/**
 * Escape on the user's keyboard: the X11 back end's once it is wired, else xdotool's XTEST
 * key (the same core-keyboard event).
 */
function escapeKeyboard(real: Promise<RawKeyboard>, env: Record<string, string>): Promise<RawKeyboard> {
  return real.then((keyboard) => ({
    ...keyboard,
    async press(key: string, modifiers: readonly string[]) {
      try {
        await keyboard.press(key, modifiers);
      } catch (error) {
        if (!(error instanceof DriverError && error.code === "unsupported_platform")) throw error;
        const done = await new Deno.Command("xdotool", { args: ["key", key], env }).output();
        if (!done.success) throw error;
      }
    },
  }));
}

Deno.test({
  name: "invoke_menu tool opens the levels a lazy toolkit hides, and closes them after a failed path",
  ignore,
  async fn(t) {
    const d = await driver();
    const env = desktopEnv();
    const app = await startFixture(env);
    const target = { pid: app.pid, window_id: app.xid };
    const real = d.runtime.registry.backend;
    const backend = new Proxy(real, {
      get(target, property, receiver) {
        if (property === "accessibility") {
          return new Proxy(real.accessibility, {
            get: (ax, name) =>
              name === "tree"
                ? (...args: Parameters<typeof ax.tree>) => ax.tree(...args).then(lazyMenus)
                : Reflect.get(ax, name).bind(ax),
          });
        }
        if (property === "input") {
          return new Proxy(real.input, {
            get: (input, name) =>
              name === "keyboard"
                ? (channel: "global" | "background") => escapeKeyboard(input.keyboard(channel), env)
                : Reflect.get(input, name).bind(input),
          });
        }
        return Reflect.get(target, property, receiver);
      },
    }) as Backend;
    const registry = new ToolRegistry([get_window_state, click, invoke_menu], backend, new RuntimeState());
    const call = (name: string, args: Record<string, unknown>) =>
      registry.call(name, args, { lease: "lazy", transport: "cli", timeoutMs: 20_000 });
    const clickLands = async () => {
      const clicks = (await events(app, "click")).length;
      await call("get_window_state", { ...target, include_screenshot: true });
      const button = app.widgets["btn-increment"];
      await call("click", { ...target, x: button.x + button.width / 2, y: button.y + button.height / 2 });
      await new Promise((resolve) => setTimeout(resolve, 400));
      return (await events(app, "click")).length > clicks;
    };
    try {
      await t.step("a failed path opened a level, then closed it", async () => {
        const [result, ms] = await timed(() => call("invoke_menu", { ...target, path: ["Window", "Nope"] }));
        const envelope = result.structuredContent as Structured;
        assert.equal(envelope.code, "menu_path_unavailable", d.text(result));
        assert.deepEqual(envelope.available, ["Arrange"]);
        assert.equal(envelope.opened_levels, 1);
        assert.equal(envelope.menus_closed, true, d.text(result));
        assert.ok(await clickLands(), "no popup grab is left");
        console.log(`invoke_menu Window > Nope with a lazy tree: refused and closed in ${ms} ms`);
      });

      await t.step("a good path opens its levels and the item closes them", async () => {
        const [result, ms] = await timed(() =>
          call("invoke_menu", { ...target, path: ["Window", "Arrange", "Left"] })
        );
        assert.equal(result.isError, undefined, d.text(result));
        const delivered = (result.structuredContent as Structured).delivery.delivered_count;
        assert.ok(delivered >= 2, `opened at least Window: ${delivered}`);
        const entry = await app.waitFor((e) => e.event === "menu", 3000);
        assert.equal(entry.menu_action, "Window/Arrange/Left");
        assert.ok(await clickLands(), "no popup grab is left");
        console.log(`invoke_menu Window > Arrange > Left with a lazy tree: ${ms} ms, ${delivered} actions`);
      });
    } finally {
      await app.stop();
      await d.close();
    }
  },
});
