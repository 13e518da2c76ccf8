/**
 * The Wayland back end on a real compositor: a headless sway session of its own
 * (`sway_session.ts`), two native Wayland GTK3 fixture apps (a target and a sentinel that must
 * receive nothing), and the driver as an MCP server with nothing but the session's variables
 * (no DISPLAY). Each cell is judged by state the apps own: their journals, AT-SPI read by a fresh
 * `/usr/bin/python3` process, sway's own tree (swaymsg), grim's capture, wl-paste/wl-copy.
 *
 * @module
 */
import assert from "node:assert/strict";
import { decodePng } from "../../src/lib/image/png.ts";
import { denoEnv } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { type Json, McpLines } from "../_helpers/mcp_lines.ts";
import { atspiText } from "../_helpers/atspi_reader.ts";
import { SwaySession, swayUnavailable } from "../_helpers/sway_session.ts";

const unavailable = swayUnavailable();
if (unavailable) console.error(`wayland_sway_test: skipped: ${unavailable}`);

/** Mean absolute difference per channel between RGBA pixels and RGB pixels of the same size. */
function meanDifference(rgba: Uint8Array, rgb: Uint8Array): number {
  let sum = 0;
  const pixels = rgb.length / 3;
  for (let i = 0; i < pixels; i++) {
    for (let c = 0; c < 3; c++) sum += Math.abs(rgba[i * 4 + c] - rgb[i * 3 + c]);
  }
  return sum / (pixels * 3);
}

async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = performance.now() + 10_000;
  while (true) {
    const value = await probe();
    if (value) return value as T;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

Deno.test({
  name: "wayland (sway): windows, capture, foreground input, background refusals and AT-SPI on native apps",
  ignore: unavailable !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using sway = await SwaySession.start();
    const appEnv = sway.appEnv();
    // The sentinel tiles left, the target right (x = 960): frames need the window's origin.
    await using sentinel = await startFixture(appEnv, { title: "Wayland sentinel" });
    await waitUntil(
      "the sentinel's window",
      async () => (await sway.windows()).some((w) => w.pid === sentinel.pid),
    );
    await using target = await startFixture(appEnv, { title: "Wayland target" });
    const swayTarget = await waitUntil(
      "the target's window",
      async () => (await sway.windows()).find((w) => w.pid === target.pid && w.rect.x > 0),
    );
    const sentinelStart = (await sentinel.readJournal()).length;
    const outDir = await Deno.makeTempDir({ prefix: "cua-wayland-test-" });
    const env = denoEnv({ ...sway.env, CUA_DRIVER_CONFIG_DIR: outDir });
    await using mcp = new McpLines(env, ["--desktop", "auto"]);
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

    await t.step("health_report names the Wayland session and compositor", async () => {
      const health =
        (await mcp.call("health_report", { include: ["display", "input", "capture"] })).structuredContent;
      const display = health.checks.find((c: Json) => c.name === "display");
      assert.equal(display.data.session, "wayland", JSON.stringify(display));
      assert.equal(display.data.compositor, "sway");
      assert.match(display.data.compositor_version, /^sway\D*\d+\.\d+/, "sway's own version, from its IPC");
      assert.equal(display.data.display, sway.env.WAYLAND_DISPLAY);
      assert.ok(display.data.driver_globals.includes("zwlr_screencopy_manager_v1"));
      assert.doesNotMatch(display.message, /X11/);
      assert.equal(health.checks.find((c: Json) => c.name === "input").data.background, false);
    });

    let windowId = 0;
    let sentinelId = 0;
    await t.step("list_windows lists both native windows with pid and sway's geometry", async () => {
      const windows = (await mcp.call("list_windows", {})).structuredContent.windows as Json[];
      const mine = windows.find((w) => w.pid === target.pid);
      const other = windows.find((w) => w.pid === sentinel.pid);
      assert.ok(mine && other, JSON.stringify(windows));
      assert.equal(mine.window_system, "wayland");
      assert.equal(mine.title, "Wayland target");
      assert.deepEqual(mine.bounds, swayTarget.rect, "bounds are sway's own rect");
      windowId = mine.window_id;
      sentinelId = other.window_id;
    });

    await focusSentinel();
    let elements: Json[] = [];
    await t.step(
      "get_window_state: the tree, frames at the window's place, pixels as grim sees them",
      async () => {
        const shot = `${outDir}/target.png`;
        const state = await mcp.call("get_window_state", {
          pid: target.pid,
          window_id: windowId,
          screenshot_out_file: shot,
        });
        assert.equal(state.isError, undefined, JSON.stringify(state.structuredContent).slice(0, 400));
        elements = state.structuredContent.elements as Json[];
        const button = elements.find((e) => e.label === "btn-increment");
        assert.ok(button?.frame, "the tree has the button with a frame");
        assert.ok(
          button.frame.x >= swayTarget.rect.x,
          `frame ${JSON.stringify(button.frame)} inside the window`,
        );
        assert.equal(button.center[0], Math.round(button.frame.x + button.frame.w / 2 - swayTarget.rect.x));
        const image = decodePng(await Deno.readFile(shot));
        assert.equal(image.width, swayTarget.rect.width);
        assert.equal(image.height, swayTarget.rect.height);
        const grim = await sway.grim(swayTarget.rect);
        assert.equal(grim.width, image.width);
        const difference = meanDifference(image.data, grim.rgb);
        assert.ok(difference < 2, `mean difference to grim's capture is ${difference.toFixed(2)}`);
        assert.ok(await sentinelFocused(), "reading the window moved no focus");
      },
    );

    await t.step("get_desktop_state's screenshot is the output grim captures", async () => {
      const shot = `${outDir}/desktop.png`;
      const state = await mcp.call("get_desktop_state", { screenshot_out_file: shot });
      assert.equal(state.isError, undefined, JSON.stringify(state.structuredContent).slice(0, 400));
      const image = decodePng(await Deno.readFile(shot));
      const grim = await sway.grim();
      assert.equal(image.width, grim.width);
      assert.ok(meanDifference(image.data, grim.rgb) < 2);
    });

    await t.step("an element click lands in the background; focus and the sentinel untouched", async () => {
      const button = elements.find((e) => e.label === "btn-increment");
      const clicked = await mcp.call("click", { element_token: button.element_token });
      assert.equal(clicked.isError, undefined, JSON.stringify(clicked.structuredContent));
      await target.waitFor((e) => e.counter === 1);
      assert.ok(await sentinelFocused(), "the background click activated nothing");
    });

    await t.step("background pixel and key requests are refused and nothing arrives", async () => {
      const button = elements.find((e) => e.label === "btn-increment");
      const [x, y] = button.center;
      const before = (await target.readJournal()).length;
      const right = await mcp.fails("right_click", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        x,
        y,
        delivery_mode: "background",
      }, "background_unavailable");
      assert.equal(right.escalation?.recommended, "foreground", JSON.stringify(right));
      await mcp.fails("press_key", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        key: "a",
        delivery_mode: "background",
      }, "background_unavailable");
      // A sync point the app owns: an AT-SPI read from another process answers after any input.
      await atspiText(sway.env, target.pid, "txt-input");
      const after = await target.readJournal();
      assert.equal(after.length, before, `nothing arrived: ${JSON.stringify(after.slice(before))}`);
      assert.ok(await sentinelFocused());
    });

    await t.step("a foreground pixel click lands and the previous focus comes back", async () => {
      const button = elements.find((e) => e.label === "btn-increment");
      // The screenshot's pixel of the button's centre: its frame, rebased to the window's place.
      const [x, y] = button.center;
      const clicked = await mcp.call("click", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        x,
        y,
        delivery_mode: "foreground",
      });
      assert.equal(clicked.isError, undefined, JSON.stringify(clicked.structuredContent));
      await target.waitFor((e) => e.counter === 2);
      await waitUntil("the sentinel's focus back", sentinelFocused);
    });

    await t.step("type_text (non-Latin too), press_key and hotkey land in the foreground", async () => {
      const entry = elements.find((e) => e.label === "txt-input");
      assert.ok(entry, "the entry is in the tree");
      const text = "héllo wörld ✓ Ωμέγα";
      const typed = await mcp.call("type_text", {
        element_token: entry.element_token,
        text,
        delivery_mode: "foreground",
      });
      assert.equal(typed.isError, undefined, JSON.stringify(typed.structuredContent));
      await target.waitFor((e) => e.mirror === text);
      assert.equal(await atspiText(sway.env, target.pid, "txt-input"), text, "AT-SPI reads the text");
      await waitUntil("the sentinel's focus back", sentinelFocused);

      const pressed = await mcp.call("press_key", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        key: "F5",
        delivery_mode: "foreground",
      });
      assert.equal(pressed.isError, undefined, JSON.stringify(pressed.structuredContent));
      await target.waitFor((e) => e.last_key === "F5");
      const hotkey = await mcp.call("hotkey", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        keys: ["ctrl", "k"],
        delivery_mode: "foreground",
      });
      assert.equal(hotkey.isError, undefined, JSON.stringify(hotkey.structuredContent));
      await target.waitFor((e) => Number(e.hotkeys) >= 1);
      await waitUntil("the sentinel's focus back", sentinelFocused);
    });

    await t.step("scroll and drag land in the foreground", async () => {
      // The fixture's own geometry of its widgets (window pixels: a tiled GTK3 window has no CSD margin).
      const centre = (name: string) => {
        const box = target.widgets[name];
        return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
      };
      const [sx, sy] = centre("scroll-tall");
      const scrolled = await mcp.call("scroll", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        x: sx,
        y: sy,
        direction: "down",
        amount: 3,
        delivery_mode: "foreground",
      });
      assert.equal(scrolled.isError, undefined, JSON.stringify(scrolled.structuredContent));
      await target.waitFor((e) => Number(e.scroll_offset) > 0);
      await waitUntil("the sentinel's focus back", sentinelFocused);

      const [x, y] = centre("drag-area");
      const dragged = await mcp.call("drag", {
        target: { kind: "window", pid: target.pid, window_id: windowId },
        from_x: x - 60,
        from_y: y,
        to_x: x + 60,
        to_y: y,
        delivery_mode: "foreground",
      });
      assert.equal(dragged.isError, undefined, JSON.stringify(dragged.structuredContent));
      const entry = await target.waitFor((e) => Number(e.drags) === 1);
      assert.equal(Number(entry.drag_distance), 120, JSON.stringify(entry));
      await waitUntil("the sentinel's focus back", sentinelFocused);
    });

    await t.step("a covered window's capture is refused with the reason; the tree still comes", async () => {
      // The sentinel floats over the target's left half.
      await sway.swaymsg(
        `[pid=${sentinel.pid}] floating enable, resize set 600 px 500 px, move absolute position 900 100`,
      );
      await waitUntil("the floating sentinel", async () => {
        const rect = (await sway.windows()).find((w) => w.pid === sentinel.pid)?.rect;
        return rect?.x === 900 && rect.width === 600;
      });
      const state = await mcp.call("get_window_state", { pid: target.pid, window_id: windowId });
      assert.equal(
        state.structuredContent.screenshot_error?.code,
        "capture_failed",
        JSON.stringify(state.structuredContent).slice(0, 300),
      );
      assert.match(
        state.structuredContent.screenshot_error.message,
        new RegExp(`window ${sentinelId} .* is on top`),
      );
      assert.ok((state.structuredContent.elements as Json[]).length > 0, "the tree is still there");
      await sway.swaymsg(`[pid=${sentinel.pid}] floating disable`);
      await waitUntil(
        "the tiled sentinel",
        async () => (await sway.windows()).find((w) => w.pid === sentinel.pid)?.rect.width === 960,
      );
    });

    await t.step("the clipboard round-trips with wl-copy and wl-paste", async () => {
      const written = await mcp.call("clipboard_write", { text: "from the driver ✓" });
      assert.equal(written.isError, undefined, JSON.stringify(written.structuredContent));
      const paste = await new Deno.Command("wl-paste", {
        args: ["-n"],
        env: sway.env,
        clearEnv: true,
        stdout: "piped",
      })
        .output();
      assert.equal(new TextDecoder().decode(paste.stdout), "from the driver ✓");
      const copy = new Deno.Command("wl-copy", { args: ["from wl-copy"], env: sway.env, clearEnv: true })
        .spawn();
      await copy.status;
      const read = await waitUntil("the new selection", async () => {
        const result = await mcp.call("clipboard_read", { include_text: true });
        return result.structuredContent.text === "from wl-copy" ? result : null;
      });
      assert.equal(read.structuredContent.text, "from wl-copy");
    });

    await t.step("the sentinel received nothing", async () => {
      const entries = (await sentinel.readJournal()).slice(sentinelStart);
      const changed = entries.filter((e) => e.event !== "focus");
      assert.deepEqual(changed, [], JSON.stringify(changed));
    });

    await t.step("an SSH shell (no WAYLAND_DISPLAY) attaches to the logged-in Wayland session", async () => {
      const { WAYLAND_DISPLAY: _display, SWAYSOCK: _sway, ...ssh } = env;
      await using attached = new McpLines(ssh, ["--desktop", "auto"]);
      await attached.initialize();
      const windows = (await attached.call("list_windows", {})).structuredContent.windows as Json[];
      assert.ok(
        windows.some((w) => w.pid === target.pid && w.window_system === "wayland"),
        JSON.stringify(windows),
      );
      const { code, stderr } = await attached.close();
      assert.equal(code, 0, stderr);
      assert.match(stderr, /attaching to Wayland session wayland-\d+ \(sway; found by the socket /, stderr);
    });

    await t.step("a lost compositor gives a structured error and the server keeps serving", async () => {
      await sway.stop();
      const failed = await mcp.fails("list_windows", {}, "display_unavailable");
      assert.match(failed.message, /sway|Wayland|compositor/, failed.message);
      const again = await mcp.fails("get_desktop_state", {}, "display_unavailable");
      assert.ok(again.hint, "with a hint");
      const tools = await mcp.request("tools/list", {});
      assert.ok(tools.result.tools.length > 0, "still serving");
    });

    const { code, stderr } = await mcp.close();
    assert.equal(code, 0, stderr);
    assert.match(stderr, /using Wayland session/, "says what it chose");
    await Deno.remove(outDir, { recursive: true });
  },
});

Deno.test({
  name: "wayland: WAYLAND_DISPLAY without a compositor is an error, never a private X desktop",
  async fn() {
    const runtimeDir = await Deno.makeTempDir({ prefix: "cua-no-compositor-" });
    const env = denoEnv({
      XDG_RUNTIME_DIR: runtimeDir,
      WAYLAND_DISPLAY: "wayland-gone",
      CUA_DRIVER_CONFIG_DIR: runtimeDir,
    });
    try {
      await using mcp = new McpLines(env, ["--desktop", "auto"]);
      await mcp.initialize();
      const failed = await mcp.fails("list_windows", {}, "display_unavailable");
      assert.match(failed.message, /WAYLAND_DISPLAY=wayland-gone/);
      const health = (await mcp.call("health_report", { include: ["display"] })).structuredContent;
      assert.notEqual(health.status, "ok", JSON.stringify(health).slice(0, 400));
      const { stderr } = await mcp.close();
      assert.doesNotMatch(stderr, /embedded desktop|private X11/, "no private desktop was started");
    } finally {
      await Deno.remove(runtimeDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "wayland (sway + XWayland): one list_windows with native and XWayland windows, each saying which",
  ignore: unavailable !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using sway = await SwaySession.start({ xwayland: true });
    await using native = await startFixture(sway.appEnv(), { title: "Wayland native" });
    await using x11 = await startFixture(sway.xwaylandAppEnv(), { title: "XWayland client" });
    assert.ok(x11.xid > 0, "the X11 fixture has an X window id");
    await waitUntil("both windows in sway's tree", async () => {
      const pids = (await sway.windows()).map((w) => w.pid);
      return pids.includes(native.pid) && pids.includes(x11.pid);
    });
    const configDir = await Deno.makeTempDir({ prefix: "cua-xwayland-test-" });
    await using mcp = new McpLines(denoEnv({ ...sway.env, CUA_DRIVER_CONFIG_DIR: configDir }), [
      "--desktop",
      "auto",
    ]);
    await mcp.initialize();
    const windows = (await mcp.call("list_windows", {})).structuredContent.windows as Json[];
    const mine = windows.find((w) => w.pid === native.pid);
    const theirs = windows.find((w) => w.pid === x11.pid);
    assert.equal(mine?.window_system, "wayland", JSON.stringify(windows));
    assert.equal(theirs?.window_system, "x11", JSON.stringify(windows));
    assert.equal(theirs.window_id, x11.xid, "the XWayland window is its X window id");
    assert.equal(windows.filter((w) => w.pid === x11.pid).length, 1, "listed once");

    // Each window's tree comes from its own back end; an element click lands in both apps.
    for (const [app, window, count] of [[native, mine, 1], [x11, theirs, 1]] as const) {
      const state = await mcp.call("get_window_state", {
        pid: app.pid,
        window_id: window.window_id,
        include_screenshot: false,
      });
      const button = (state.structuredContent.elements as Json[]).find((e) => e.label === "btn-increment");
      assert.ok(button, `${window.window_system}: the tree has the button`);
      const clicked = await mcp.call("click", { element_token: button.element_token });
      assert.equal(clicked.isError, undefined, JSON.stringify(clicked.structuredContent));
      await app.waitFor((e) => e.counter === count);
    }
    const health = (await mcp.call("health_report", { include: ["display"] })).structuredContent;
    const display = health.checks.find((c: Json) => c.name === "display");
    assert.equal(display.data.session, "wayland", JSON.stringify(display));
    assert.equal(display.data.xwayland?.display, sway.env.DISPLAY, "names XWayland's display too");
    const { code, stderr } = await mcp.close();
    assert.equal(code, 0, stderr);
    await Deno.remove(configDir, { recursive: true });
  },
});
