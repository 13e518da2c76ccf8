/**
 * The tool registry driving the macOS back end on a fake Mac: every tool call goes
 * through the same core as on Linux, down to the framework tables, and each result is
 * judged by the fake Mac's own state (the app's text, its checkbox, the pasteboard,
 * the window server's list), then the fake is checked for leaked or over-released objects.
 *
 * @module
 */
import assert from "node:assert/strict";
import { MAC } from "../../src/backends/darwin/_fake/mod.ts";
import { macDriver, type Structured } from "./_driver.ts";

Deno.test("darwin tools: list_windows, get_screen_size and get_cursor_position report the fake Mac", async () => {
  await using driver = macDriver();
  const { windows } = await driver.ok("list_windows");
  const rows = Object.fromEntries(
    windows.map((w: Structured) => [w.window_id, [w.app_name, w.title, w.z_index]]),
  );
  assert.deepEqual(rows, {
    [MAC.textEditWindow]: ["TextEdit", "Untitled.rtf", 3],
    [MAC.controlsWindow]: ["Controls", "Controls", 2],
    [MAC.chromeWindow]: ["Google Chrome", "New Tab - Google Chrome", 1],
    [MAC.textEditMinimized]: ["TextEdit", "Notes.txt", null],
  });
  const size = await driver.ok("get_screen_size");
  assert.deepEqual([size.width, size.height, size.scale_factor], [1512, 982, 2]);
  driver.world.cursor = { x: 10, y: 20 };
  const cursor = await driver.ok("get_cursor_position");
  assert.deepEqual([cursor.x, cursor.y], [10, 20]);
});

/** The element row of a get_window_state result whose label (or role) matches. */
function element(state: Structured, label: string): Structured {
  const row = state.elements.find((e: Structured) => e.label === label);
  assert.ok(row, `no element labelled ${label}: ${JSON.stringify(state.elements).slice(0, 2000)}`);
  return row;
}

Deno.test("darwin tools: get_window_state reads TextEdit's tree and a Retina screenshot", async () => {
  await using driver = macDriver();
  const result = await driver.call("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  assert.equal(result.isError, undefined);
  const state = result.structuredContent as Structured;
  assert.equal(state.title, "Untitled.rtf");
  assert.equal(state.elements_complete, true);
  // Captured at 1600x1200 pixels (2x), then scaled to the core's screenshot budget: 4:3 kept.
  assert.equal(Math.round(state.screenshot_width / state.screenshot_scale), 800);
  assert.equal(Math.round(state.screenshot_height / state.screenshot_scale), 600);
  assert.ok(state.screenshot_scale > 1.5, "Retina pixels, not points");
  const text = result.content.find((part) => part.type === "text");
  assert.match(text?.type === "text" ? text.text : "", /Hello from TextEdit/, "the outline is in the text");
  assert.ok(result.content.some((part) => part.type === "image"));
  const bold = element(state, "Bold");
  assert.match(bold.element_token, /^s[0-9a-f]{8}:\d+$/);
});

Deno.test("darwin tools: click by element token presses through AXPress, confirmed by the checkbox", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.controls, window_id: MAC.controlsWindow });
  const check = element(state, "Enable notifications");
  const clicked = await driver.ok("click", { element_token: check.element_token });
  assert.equal(driver.world.named(MAC.controls, "Enable notifications").value, 0, "the app's own checkbox");
  assert.equal(clicked.effect, "confirmed");
  assert.equal(clicked.route, "accessibility");
  assert.equal(driver.world.events.length, 0, "no synthetic event was needed");
});

Deno.test("darwin tools: a pixel click in background posts to the app and leaves the user's pointer", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.controls, window_id: MAC.controlsWindow });
  // "Enable notifications" sits at (1120..1320, 340..360) on screen; the window at (1100, 300) @2x.
  const clicked = await driver.ok("click", {
    pid: MAC.controls,
    window_id: MAC.controlsWindow,
    x: (1200 - 1100) * state.screenshot_scale,
    y: (350 - 300) * state.screenshot_scale,
  });
  assert.equal(driver.world.named(MAC.controls, "Enable notifications").value, 0);
  assert.equal(clicked.effect, "confirmed");
  assert.deepEqual(driver.world.cursor, { x: 700, y: 500 });
  assert.equal(driver.world.frontmost, MAC.textEdit);
  assert.ok(driver.world.events.every((e) => e.route === "pid" && e.pid === MAC.controls));
});

Deno.test("darwin tools: a background pixel click's result names the native call that posted it", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.controls, window_id: MAC.controlsWindow });
  const result = await driver.call("click", {
    pid: MAC.controls,
    window_id: MAC.controlsWindow,
    x: (1200 - 1100) * state.screenshot_scale,
    y: (350 - 300) * state.screenshot_scale,
  });
  const text = result.content.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n");
  assert.match(text, /with a private pointer \(posted with SLEventPostToPid\)/);
  assert.equal(driver.world.named(MAC.controls, "Enable notifications").value, 0);
});

Deno.test("darwin tools: type_text inserts through accessibility, confirmed by TextEdit's text", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const text = state.elements.find((e: Structured) => e.value === "Hello from TextEdit");
  const typed = await driver.ok("type_text", { element_token: text.element_token, text: " — ünïcödé 👍🏽" });
  assert.equal(typed.effect, "confirmed");
  assert.equal(driver.world.app(MAC.textEdit)!.focused!.value, "Hello from TextEdit — ünïcödé 👍🏽");
});

Deno.test("darwin tools: type_text without an element types keystrokes into the window in background", async () => {
  await using driver = macDriver();
  await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const typed = await driver.ok("type_text", {
    pid: MAC.textEdit,
    window_id: MAC.textEditWindow,
    text: "!? 世界",
  });
  assert.equal(driver.world.app(MAC.textEdit)!.focused!.value, "Hello from TextEdit!? 世界");
  assert.equal(typed.delivery?.mode, "background");
  assert.equal(typed.effect, "confirmed");
  assert.ok(driver.world.events.every((e) => e.route === "pid"));
});

Deno.test("darwin tools: set_value sets a slider, read back from the app", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.controls, window_id: MAC.controlsWindow });
  await driver.ok("set_value", { element_token: element(state, "Volume").element_token, value: "75" });
  assert.equal(driver.world.named(MAC.controls, "Volume").value, 75);
});

Deno.test("darwin tools: set_window_frame and bring_to_front act on the window server's own state", async () => {
  await using driver = macDriver();
  const framed = await driver.ok("set_window_frame", {
    pid: MAC.textEdit,
    window_id: MAC.textEditWindow,
    x: 40,
    y: 60,
    width: 700,
    height: 500,
  });
  assert.deepEqual(driver.world.window(MAC.textEditWindow)!.bounds, {
    x: 40,
    y: 60,
    width: 700,
    height: 500,
  });
  assert.ok(framed);
  await driver.ok("bring_to_front", { pid: MAC.controls, window_id: MAC.controlsWindow });
  assert.equal(driver.world.frontmost, MAC.controls);
});

Deno.test("darwin tools: the desktop screenshot, apps and the clipboard", async () => {
  await using driver = macDriver();
  const desktop = await driver.ok("get_desktop_state");
  assert.deepEqual([desktop.screenshot_width, desktop.screenshot_height, desktop.scale_factor], [
    3024,
    1964,
    2,
  ]);
  const { apps } = await driver.ok("list_apps");
  assert.ok(apps.some((a: Structured) => a.bundle_id === "com.apple.TextEdit" && a.running));
  await driver.ok("clipboard_write", { text: "from the agent" });
  assert.deepEqual(driver.world.pasteboard, [{ type: "public.utf8-plain-text", text: "from the agent" }]);
  const read = await driver.ok("clipboard_read", { include_text: true });
  assert.ok(JSON.stringify(read).includes("from the agent"), JSON.stringify(read));
});

Deno.test("darwin tools: check_permissions and health_report speak macOS", async () => {
  await using driver = macDriver();
  driver.world.screenCaptureAllowed = false;
  const permissions = await driver.ok("check_permissions");
  assert.equal(permissions.platform, "darwin");
  assert.deepEqual(permissions.missing, ["screen_recording"]);
  const health = await driver.ok("health_report", {
    include: ["display", "accessibility", "capture", "input"],
  });
  assert.equal(health.platform, "darwin");
  assert.equal(health.overall, "degraded");
  assert.equal(health.checks.find((c: Structured) => c.name === "capture").status, "fail");
});

Deno.test("darwin tools: background input to Chrome is refused toward the page rung, nothing sent", async () => {
  await using driver = macDriver();
  await driver.ok("get_window_state", { pid: MAC.chrome, window_id: MAC.chromeWindow });
  const refused = await driver.fails("click", {
    pid: MAC.chrome,
    window_id: MAC.chromeWindow,
    x: 100,
    y: 100,
  }, "background_unavailable");
  assert.equal(refused.escalation.recommended, "page");
  assert.equal(driver.world.events.length, 0);
});

Deno.test("darwin tools: invoke_menu presses File > Save… through the app's menu bar", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  assert.ok(
    state.elements.some((e: Structured) => e.label === "File"),
    "the menu bar is in the window's tree",
  );
  await driver.ok("invoke_menu", {
    pid: MAC.textEdit,
    window_id: MAC.textEditWindow,
    path: ["File", "Save…"],
  });
  const save = driver.world.named(MAC.textEdit, "Save…");
  assert.deepEqual(driver.world.actions.filter((a) => a.element === save.id), [{
    element: save.id,
    action: "AXPress",
  }]);
  await driver.fails(
    "invoke_menu",
    { pid: MAC.textEdit, window_id: MAC.textEditWindow, path: ["File", "Print…"] },
    "menu_path_unavailable",
  );
});

Deno.test("darwin tools: repeated snapshots keep a bounded number of element references alive", async () => {
  await using driver = macDriver();
  let nodes = 0;
  for (let i = 0; i < 20; i++) {
    const state = await driver.ok("get_window_state", {
      pid: MAC.controls,
      window_id: MAC.controlsWindow,
      include_screenshot: false,
    });
    nodes = state.total_element_count;
  }
  const held = driver.mac.fake.heap.live("AXUIElement").filter((o) => o.owned > 0);
  // The last four snapshots of the window stay usable; the system-wide element is the one extra.
  assert.ok(held.length <= 4 * nodes + 1, `${held.length} element references alive for ${nodes}-node trees`);
  assert.ok(driver.mac.fake.heap.live("CFArray").every((o) => o.owned === 0 || o.origin === "CFArrayCreate"));
});
