/**
 * The AT-SPI back end against a real gtk3-widget-factory: tree content, frames,
 * states and element operations. Runs when DISPLAY and DBUS_SESSION_BUS_ADDRESS name a
 * desktop with an AT-SPI bus (scripts/test.ts starts one); xdotool is used here only,
 * to find the window as the X11 back end would.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, e2eRequired, hasDesktop } from "../_helpers/desktop_env.ts";
import { AtspiAccessibility } from "../../src/backends/linux/accessibility.ts";
import type { AxNode, AxTree } from "../../src/ports/accessibility.ts";
import type { Rect } from "../../src/ports/geometry.ts";

const ignore = Deno.build.os !== "linux" ||
  (!(hasDesktop() && Deno.env.get("DBUS_SESSION_BUS_ADDRESS")) && !e2eRequired());
const LIMITS = { maxNodes: 5000, maxDepth: 64 };

/** Push buttons every gtk3-widget-factory page 1 shows (one of them is enough). */
const KNOWN_BUTTONS = ["Sans Regular", "link button", "(None)", "Minimize", "Maximize", "Close"];

async function run(cmd: string, args: string[], env: Record<string, string>): Promise<string> {
  const output = await new Deno.Command(cmd, { args, env, stdin: "null", stdout: "piped", stderr: "null" })
    .output();
  return output.success ? new TextDecoder().decode(output.stdout) : "";
}

/** The largest widget-factory window of `pid`, found with xdotool. */
async function findWindow(
  env: Record<string, string>,
  pid: number,
): Promise<{ xid: number; bounds: Rect } | null> {
  const ids = await run("xdotool", [
    "search",
    "--all",
    "--pid",
    String(pid),
    "--name",
    "[Ww]idget[ -][Ff]actory",
  ], env);
  let best: { xid: number; bounds: Rect } | null = null;
  for (const id of ids.split(/\s+/).filter(Boolean)) {
    const geometry = await run("xdotool", ["getwindowgeometry", id], env);
    const position = /Position: (-?\d+),(-?\d+)/.exec(geometry);
    const size = /Geometry: (\d+)x(\d+)/.exec(geometry);
    if (!position || !size) continue;
    const bounds = { x: +position[1], y: +position[2], width: +size[1], height: +size[2] };
    if (
      bounds.width > 200 && (!best || bounds.width * bounds.height > best.bounds.width * best.bounds.height)
    ) {
      best = { xid: Number(id), bounds };
    }
  }
  return best;
}

async function poll<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function inside(frame: Rect, bounds: Rect, slack = 4): boolean {
  return frame.x >= bounds.x - slack && frame.y >= bounds.y - slack &&
    frame.x + frame.width <= bounds.x + bounds.width + slack &&
    frame.y + frame.height <= bounds.y + bounds.height + slack;
}

Deno.test({
  name: "AtspiAccessibility reads gtk3-widget-factory's window tree and acts on its widgets",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    const child = new Deno.Command("gtk3-widget-factory", {
      env: { ...env, NO_AT_BRIDGE: "0" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    // The X11 back end answers windowBounds from its own connection; here the bounds
    // xdotool found are handed back as they are.
    let window: { xid: number; bounds: Rect } | null = null;
    const ax = new AtspiAccessibility({
      windowBounds: (xid) => Promise.resolve(xid === window?.xid ? window.bounds : null),
      sessionBusAddress: env.DBUS_SESSION_BUS_ADDRESS,
    });
    try {
      window = await poll("the widget-factory window", 20_000, () => findWindow(env, child.pid));
      const signal = () => AbortSignal.timeout(15_000);
      const xid = window.xid;
      const tree = await poll("the accessible tree", 20_000, async () => {
        window = await findWindow(env, child.pid) ?? window; // it may still be mapping or moving
        const tree = await ax.tree(child.pid, xid, LIMITS, signal());
        return tree.nodes.length > 150 ? tree : null;
      });
      const bounds = window!.bounds;

      await t.step("the tree is the window's, in pre-order", () => {
        assert.equal(tree.error, null);
        assert.equal(tree.nodes[0].depth, 0);
        assert.equal(tree.nodes[0].parent, -1);
        assert.ok(
          ["frame", "window", "dialog"].includes(tree.nodes[0].platformRole),
          tree.nodes[0].platformRole,
        );
        tree.nodes.forEach((node, i) => {
          if (i === 0) return;
          assert.ok(node.parent >= 0 && node.parent < i, `node ${i} comes after its parent`);
          assert.equal(node.depth, tree.nodes[node.parent].depth + 1);
        });
      });

      await t.step("push buttons carry names, actions and frames inside the window", () => {
        const buttons = tree.nodes.filter((n) =>
          n.platformRole === "push button" && KNOWN_BUTTONS.includes(n.name)
        );
        assert.ok(buttons.length > 0, "a known widget-factory button is present");
        const button = buttons.find((n) => n.frame !== null)!;
        assert.ok(button, "a known button has a frame");
        assert.ok(
          inside(button.frame!, bounds),
          `${JSON.stringify(button.frame)} inside ${JSON.stringify(bounds)}`,
        );
        assert.ok(button.actions.includes("click"), `actions ${button.actions}`);
        assert.ok(button.interfaces.includes("action") && button.interfaces.includes("component"));
        assert.ok(buttons.every((n) => n.role === "button"), "push buttons map to the neutral button role");
      });

      await t.step("check boxes report their checked state", () => {
        const boxes = tree.nodes.filter((n) => n.platformRole === "check box");
        assert.ok(
          boxes.every((n) => n.role === "check_box"),
          "check boxes map to the neutral check_box role",
        );
        assert.ok(boxes.some((n) => n.selected === true), "a checked check box");
        assert.ok(boxes.some((n) => n.selected === false), "an unchecked check box");
      });

      await t.step("values and text are filled in", () => {
        assert.ok(tree.nodes.some((n) => n.role === "slider" && n.value !== null && n.frame !== null));
        assert.ok(tree.nodes.some((n) => n.platformRole === "text" && n.value === "entry"));
        assert.ok(tree.nodes.some((n) => n.platformRole === "table cell"), "tree view cells are read");
      });

      await t.step("doAction toggles a toggle button and getState sees it", async () => {
        const toggle = enabled(tree, "toggle button", "togglebutton");
        const before = (await ax.state(toggle.ref)).checked;
        assert.equal(await ax.doAction(toggle.ref, "click"), true);
        await poll(
          "the toggle state",
          3000,
          async () => (await ax.state(toggle.ref)).checked !== before || null,
        );
        await ax.doAction(toggle.ref, "Click"); // restore; localized names match too
        await poll(
          "the toggle state",
          3000,
          async () => (await ax.state(toggle.ref)).checked === before || null,
        );
      });

      await t.step("getValue and setValue drive a slider", async () => {
        const slider = enabled(tree, "slider");
        const before = (await ax.value(slider.ref)).current;
        await ax.setValue(slider.ref, before === 60 ? 40 : 60);
        assert.equal((await ax.value(slider.ref)).current, before === 60 ? 40 : 60);
        await ax.setValue(slider.ref, before);
      });

      await t.step("text operations edit an entry", async () => {
        const entry = tree.nodes.find((n) => n.platformRole === "text" && n.enabled && n.value === "entry")!;
        assert.equal(await ax.text(entry.ref), "entry");
        assert.equal(await ax.setText(entry.ref, "héllo"), true);
        assert.equal(await ax.insertText(entry.ref, 5, " wörld"), true);
        assert.equal(await ax.text(entry.ref), "héllo wörld");
        await ax.setText(entry.ref, "entry");
      });

      await t.step("a warm snapshot reads the same tree again", async () => {
        // Its speed is a benchmark (scripts/bench.ts: get_window_state of gtk3-widget-factory).
        const times: number[] = [];
        const sizes = new Set<number>();
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          sizes.add((await ax.tree(child.pid, xid, LIMITS, signal())).nodes.length);
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        console.log(`widget-factory tree: median ${times[2].toFixed(1)} ms of 5`);
        assert.deepEqual([...sizes], [tree.nodes.length], "every warm snapshot has the same nodes");
      });

      await t.step("a process without an accessible application gives an error tree", async () => {
        const empty = await ax.tree(Deno.pid, 1, LIMITS, signal());
        assert.deepEqual(empty.nodes, []);
        assert.equal(empty.truncated, false);
        assert.match(empty.error ?? "", /No AT-SPI application for pid/);
      });
    } finally {
      await ax.close();
      child.kill("SIGTERM");
      await child.status;
    }
  },
});

function enabled(tree: AxTree, role: string, name?: string): AxNode {
  const node = tree.nodes.find((n) =>
    n.platformRole === role && n.enabled && n.showing && (name === undefined || n.name === name)
  );
  assert.ok(node, `an enabled ${role}${name ? ` "${name}"` : ""}`);
  return node;
}
