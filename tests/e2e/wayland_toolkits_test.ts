/**
 * GTK 4 and Qt 5 as native Wayland clients on headless sway, driven through MCP: a GTK3
 * sentinel tiles left, a GTK 4 fixture (`tests/fixtures/gtk4_harness.py`) in the middle and
 * FeatherPad (Qt 5, started by the driver's launch_app) on the right, so every frame needs its
 * window's origin. Judged by the GTK 4 fixture's journal, AT-SPI read by a fresh python3 process
 * and sway's tree; the sentinel must receive nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { atspiText } from "../_helpers/atspi_reader.ts";
import { denoEnv } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { spawnJournalProcess } from "../_helpers/journal_process.ts";
import { type Json, McpLines } from "../_helpers/mcp_lines.ts";
import { SwaySession, swayUnavailable } from "../_helpers/sway_session.ts";

const GTK4_FIXTURE = fileURLToPath(new URL("../fixtures/gtk4_harness.py", import.meta.url));
const FEATHERPAD = "/usr/bin/featherpad";

function unavailable(): string | null {
  const sway = swayUnavailable();
  if (sway) return sway;
  for (const path of [FEATHERPAD, "/usr/lib/x86_64-linux-gnu/qt5/plugins/platforms/libqwayland-generic.so"]) {
    try {
      Deno.statSync(path);
    } catch {
      if (!path.includes("x86_64") || Deno.build.arch === "x86_64") {
        return `${path} is missing (scripts/setup.sh installs featherpad and qtwayland5)`;
      }
    }
  }
  return null;
}

const why = unavailable();
if (why) console.error(`wayland_toolkits_test: skipped: ${why}`);

async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = performance.now() + 15_000;
  while (true) {
    const value = await probe();
    if (value) return value as T;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

Deno.test({
  name:
    "wayland (sway): GTK 4 and Qt 5 native windows: listed, trees with frames, background actions, foreground input",
  ignore: why !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using sway = await SwaySession.start();
    await using sentinel = await startFixture(sway.appEnv(), { title: "Wayland sentinel" });
    await waitUntil(
      "the sentinel's window",
      async () => (await sway.windows()).some((w) => w.pid === sentinel.pid),
    );
    const gtk4 = await spawnJournalProcess(GTK4_FIXTURE, ["--title", "Wayland GTK4"], sway.appEnv());
    try {
      await gtk4.ready(15_000, "The GTK 4 fixture");
      await waitUntil("the GTK 4 window", async () => (await sway.windows()).some((w) => w.pid === gtk4.pid));
      const sentinelStart = (await sentinel.readJournal()).length;
      const configDir = await Deno.makeTempDir({ prefix: "cua-wayland-toolkits-" });
      await using mcp = new McpLines(denoEnv({ ...sway.env, CUA_DRIVER_CONFIG_DIR: configDir }), [
        "--desktop",
        "auto",
      ]);
      await mcp.initialize();
      const focusSentinel = async () => {
        await sway.swaymsg(`[pid=${sentinel.pid}] focus`);
        await waitUntil(
          "the sentinel's focus",
          async () => (await sway.windows()).find((w) => w.pid === sentinel.pid)?.focused,
        );
      };
      const sentinelFocused = async () =>
        (await sway.windows()).find((w) => w.pid === sentinel.pid)?.focused === true;

      let qtPid = 0;
      await t.step("launch_app starts FeatherPad as a native Wayland client", async () => {
        const launched = await mcp.call("launch_app", { launch_path: FEATHERPAD });
        assert.equal(launched.isError, undefined, JSON.stringify(launched.structuredContent));
        qtPid = launched.structuredContent.pid;
        const window = await waitUntil(
          "FeatherPad's window",
          async () => (await sway.windows()).find((w) => w.pid === qtPid),
        );
        assert.ok(window.rect.x >= 1200, `FeatherPad tiles right: ${JSON.stringify(window.rect)}`);
      });

      const windowOf = async (pid: number) => {
        const windows = (await mcp.call("list_windows", {})).structuredContent.windows as Json[];
        const window = windows.find((w) => w.pid === pid);
        assert.ok(window, `pid ${pid} is listed: ${JSON.stringify(windows)}`);
        assert.equal(window.window_system, "wayland");
        const own = (await sway.windows()).find((w) => w.pid === pid)!;
        assert.deepEqual(window.bounds, own.rect, "bounds are sway's own rect");
        return window;
      };

      await focusSentinel();
      await t.step("GTK 4: an element click in the background, a foreground click and typing", async () => {
        const window = await windowOf(gtk4.pid);
        const state = await mcp.call("get_window_state", { pid: gtk4.pid, window_id: window.window_id });
        assert.equal(state.isError, undefined, JSON.stringify(state.structuredContent).slice(0, 400));
        const elements = state.structuredContent.elements as Json[];
        const button = elements.find((e) => e.label === "g4-increment");
        const toggle = elements.find((e) => e.label === "g4-toggle");
        const entry = elements.find((e) => e.label === "g4-entry");
        assert.ok(button && toggle && entry, JSON.stringify(elements.map((e) => e.label)));
        assert.ok(button.frame.x >= window.bounds.x, `frame ${JSON.stringify(button.frame)} in the window`);

        const clicked = await mcp.call("click", { element_token: button.element_token });
        assert.equal(clicked.isError, undefined, JSON.stringify(clicked.structuredContent));
        await waitUntil("the click", async () => (await gtk4.readJournal()).some((e) => e.counter === 1));
        assert.ok(await sentinelFocused(), "the background click activated nothing");

        const [x, y] = toggle.center;
        const pressed = await mcp.call("click", {
          target: { kind: "window", pid: gtk4.pid, window_id: window.window_id },
          x,
          y,
          delivery_mode: "foreground",
        });
        assert.equal(pressed.isError, undefined, JSON.stringify(pressed.structuredContent));
        await waitUntil("the toggle", async () => (await gtk4.readJournal()).some((e) => e.toggled === true));
        await waitUntil("the sentinel's focus back", sentinelFocused);

        const text = "gtk4 ünïcode ✓";
        const typed = await mcp.call("type_text", {
          element_token: entry.element_token,
          text,
          delivery_mode: "foreground",
        });
        assert.equal(typed.isError, undefined, JSON.stringify(typed.structuredContent));
        await waitUntil("the text", async () => (await gtk4.readJournal()).some((e) => e.text === text));
        assert.equal(await atspiText(sway.env, gtk4.pid, "g4-entry"), text, "AT-SPI reads it");
        await waitUntil("the sentinel's focus back", sentinelFocused);
      });

      await t.step("Qt 5: the tree with frames, foreground typing read back through AT-SPI", async () => {
        const window = await windowOf(qtPid);
        const state = await waitUntil("FeatherPad's tree", async () => {
          const answer = await mcp.call("get_window_state", { pid: qtPid, window_id: window.window_id });
          const elements = (answer.structuredContent.elements ?? []) as Json[];
          return elements.length > 3 ? answer : null;
        });
        const elements = state.structuredContent.elements as Json[];
        const framed = elements.filter((e) => e.frame);
        assert.ok(framed.length > 0, "elements carry frames");
        for (const e of framed) {
          assert.ok(
            e.frame.x >= window.bounds.x - 1 && e.frame.x < window.bounds.x + window.bounds.width,
            `${e.label}: frame ${JSON.stringify(e.frame)} inside the window ${JSON.stringify(window.bounds)}`,
          );
        }
        const text = "qt typed ✓";
        const typed = await mcp.call("type_text", {
          target: { kind: "window", pid: qtPid, window_id: window.window_id },
          text,
          delivery_mode: "foreground",
        });
        assert.equal(typed.isError, undefined, JSON.stringify(typed.structuredContent));
        await waitUntil(
          "FeatherPad's text",
          async () => (await atspiText(sway.env, qtPid, ""))?.includes(text),
        );
        await waitUntil("the sentinel's focus back", sentinelFocused);
      });

      await t.step("the sentinel received nothing", async () => {
        const changed = (await sentinel.readJournal()).slice(sentinelStart).filter((e) =>
          e.event !== "focus"
        );
        assert.deepEqual(changed, []);
      });
      if (qtPid) await mcp.call("kill_app", { pid: qtPid }).catch(() => {});
      const { code, stderr } = await mcp.close();
      assert.equal(code, 0, stderr);
      await Deno.remove(configDir, { recursive: true });
    } finally {
      await gtk4.stop();
    }
  },
});
