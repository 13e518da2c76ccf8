/**
 * The rest of the tool catalog on the fake Mac: gestures (parallel drags too), keys, zoom,
 * verification, batches, apps, and the tools that refuse on macOS, each judged by the fake
 * Mac's own state (or by the precise refusal code), then checked for leaks.
 *
 * @module
 */
import assert from "node:assert/strict";
import { MAC } from "../../src/backends/darwin/_fake/mod.ts";
import { macDriver, type Structured } from "./_driver.ts";

/** Window-local screenshot pixels of a screen point in a window snapshot. */
function pixel(state: Structured, x: number, y: number): { x: number; y: number } {
  return {
    x: Math.round((x - state.bounds.x) * state.screenshot_scale),
    y: Math.round((y - state.bounds.y) * state.screenshot_scale),
  };
}

Deno.test("darwin gestures: double_click and right_click post their click counts and buttons to the app", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.controls, window_id: MAC.controlsWindow });
  const at = pixel(state, 1200, 350);
  await driver.ok("double_click", { pid: MAC.controls, window_id: MAC.controlsWindow, ...at });
  const downs = driver.world.events.filter((e) => e.type === 1);
  assert.deepEqual(downs.map((e) => e.fields[1]), [1n, 2n]);
  assert.equal(
    driver.world.named(MAC.controls, "Enable notifications").value,
    0,
    "a double click toggles once",
  );
  await driver.ok("right_click", { pid: MAC.controls, window_id: MAC.controlsWindow, ...at });
  assert.ok(driver.world.events.some((e) => e.type === 3 && e.pid === MAC.controls), "a right mouse down");
  assert.deepEqual(driver.world.cursor, { x: 700, y: 500 });
});

Deno.test("darwin gestures: scroll moves TextEdit's scroll bar, confirmed by its value", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const at = pixel(state, 600, 400);
  const scrolled = await driver.ok("scroll", {
    pid: MAC.textEdit,
    window_id: MAC.textEditWindow,
    direction: "down",
    amount: 3,
    ...at,
  });
  const bar = [...driver.world.elements(driver.world.app(MAC.textEdit)!.ax)].find((n) =>
    n.role === "AXScrollBar"
  )!;
  assert.ok((bar.value as number) > 0, `the scroll bar moved: ${JSON.stringify(scrolled)}`);
});

Deno.test("darwin gestures: drag and the held-button tools press, move and release in one app", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const from = pixel(state, 400, 400), to = pixel(state, 600, 450);
  await driver.ok("drag", {
    pid: MAC.textEdit,
    window_id: MAC.textEditWindow,
    from_x: from.x,
    from_y: from.y,
    to_x: to.x,
    to_y: to.y,
  });
  const types = driver.world.events.map((e) => e.type);
  assert.ok(types.includes(1) && types.includes(6) && types.includes(2), `down, dragged, up: ${types}`);
  assert.ok(driver.world.events.every((e) => e.pid === MAC.textEdit));
  driver.world.events.length = 0;
  await driver.ok("mouse_button_down", { pid: MAC.textEdit, window_id: MAC.textEditWindow, ...from });
  await driver.ok("mouse_drag", { pid: MAC.textEdit, window_id: MAC.textEditWindow, ...to });
  await driver.ok("mouse_button_up", { pid: MAC.textEdit, window_id: MAC.textEditWindow, ...to });
  assert.deepEqual([...new Set(driver.world.events.map((e) => e.type))].filter((t) => t !== 5), [1, 6, 2]);
});

Deno.test("darwin gestures: parallel_mouse_drag runs two drags at once, each posted to its own app", async () => {
  await using driver = macDriver();
  const edit = await driver.ok("get_window_state", {
    pid: MAC.textEdit,
    window_id: MAC.textEditWindow,
    session: "s1",
  });
  const form = await driver.ok("get_window_state", {
    pid: MAC.controls,
    window_id: MAC.controlsWindow,
    session: "s2",
  });
  const cursor = { ...driver.world.cursor };
  driver.world.events.length = 0;
  const drag = (session: string, state: Structured, pid: number, windowId: number) => {
    const from = pixel(state, state.bounds.x + 50, state.bounds.y + 150);
    const to = pixel(state, state.bounds.x + 200, state.bounds.y + 180);
    return { session, pid, window_id: windowId, from_x: from.x, from_y: from.y, to_x: to.x, to_y: to.y };
  };
  await driver.ok("parallel_mouse_drag", {
    drags: [
      drag("s1", edit, MAC.textEdit, MAC.textEditWindow),
      drag("s2", form, MAC.controls, MAC.controlsWindow),
    ],
  });
  for (const [pid, state] of [[MAC.textEdit, edit], [MAC.controls, form]] as const) {
    const mine = driver.world.events.filter((e) => e.pid === pid && e.type !== 5);
    assert.equal(mine[0].type, 1, "a mouse down first");
    assert.equal(mine.at(-1)!.type, 2, "a mouse up last");
    assert.ok(mine.slice(1, -1).every((e) => e.type === 6), "dragged in between");
    const near = (p: { x: number; y: number }, x: number, y: number) =>
      Math.abs(p.x - x) <= 1 && Math.abs(p.y - y) <= 1;
    assert.ok(
      near(mine[0].location, state.bounds.x + 50, state.bounds.y + 150),
      JSON.stringify(mine[0].location),
    );
    assert.ok(near(mine.at(-1)!.location, state.bounds.x + 200, state.bounds.y + 180));
  }
  const downs = driver.world.events.findIndex((e) => e.type === 1 && e.pid === MAC.controls);
  const firstUp = driver.world.events.findIndex((e) => e.type === 2);
  assert.ok(downs < firstUp, "the second drag starts before the first ends");
  assert.ok(driver.world.events.every((e) => e.route === "pid"), "posted to the apps, not the HID tap");
  assert.deepEqual(driver.world.cursor, cursor, "the user's pointer stays where it was");
});

Deno.test("darwin keys: press_key and hotkey land in TextEdit's text in background", async () => {
  await using driver = macDriver();
  await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const text = driver.world.app(MAC.textEdit)!.focused!;
  await driver.ok("press_key", { pid: MAC.textEdit, window_id: MAC.textEditWindow, key: "Return" });
  assert.equal(text.value, "Hello from TextEdit\n");
  await driver.ok("hotkey", { pid: MAC.textEdit, window_id: MAC.textEditWindow, keys: ["cmd", "a"] });
  assert.deepEqual(text.selectedRange, { location: 0, length: 20 }, "Select All, read from the app");
  await driver.ok("press_key", { pid: MAC.textEdit, window_id: MAC.textEditWindow, key: "BackSpace" });
  assert.equal(text.value, "");
  assert.equal(driver.world.frontmost, MAC.textEdit);
  assert.ok(driver.world.events.every((e) => e.route === "pid"));
});

Deno.test("darwin tools: move_cursor moves the user's pointer only in desktop scope", async () => {
  await using driver = macDriver();
  await driver.ok("move_cursor", { x: 100, y: 200, scope: "desktop" });
  assert.deepEqual(driver.world.cursor, { x: 100, y: 200 });
  assert.equal(driver.world.events.at(-1)?.route, "hid");
});

Deno.test("darwin tools: zoom crops a region of a Retina window capture", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const result = await driver.call("zoom", {
    window_id: MAC.textEditWindow,
    x1: 100,
    y1: 100,
    x2: 300,
    y2: 200,
  });
  assert.equal(result.isError, undefined);
  const image = result.content.find((p) => p.type === "image");
  assert.equal(image?.type === "image" ? image.mimeType : null, "image/jpeg");
  assert.ok(state.screenshot_scale > 1);
});

Deno.test("darwin tools: verify_state checks the app's elements and window by predicates", async () => {
  await using driver = macDriver();
  const verified = await driver.ok("verify_state", {
    pid: MAC.controls,
    window_id: MAC.controlsWindow,
    timeout_ms: 0,
    expect: [
      { element: { selector: { role: "check_box", label_contains: "notifications" }, selected: true } },
      { element: { selector: { label_contains: "Volume" }, value_equals: "50" } },
      { window: { bounds: { x: 1100, y: 300, width: 360, height: 420 } } },
    ],
  });
  assert.equal(verified.status, "satisfied", JSON.stringify(verified));
  assert.deepEqual(verified.predicates.map((p: Structured) => p.status), [
    "satisfied",
    "satisfied",
    "satisfied",
  ]);
  const unmet = await driver.ok("verify_state", {
    pid: MAC.controls,
    window_id: MAC.controlsWindow,
    timeout_ms: 0,
    expect: [{ element: { selector: { label_contains: "Volume" }, value_equals: "99" } }],
  });
  assert.notEqual(unmet.status, "satisfied");
});

Deno.test("darwin tools: run_actions batches a click and typing, then observes", async () => {
  await using driver = macDriver();
  const state = await driver.ok("get_window_state", { pid: MAC.controls, window_id: MAC.controlsWindow });
  const name = state.elements.find((e: Structured) => e.label === "Name");
  const check = state.elements.find((e: Structured) => e.label === "Enable notifications");
  await driver.ok("run_actions", {
    actions: [
      { tool: "click", arguments: { element_token: check.element_token } },
      { tool: "set_value", arguments: { element_token: name.element_token, value: "Grace" } },
    ],
    observe: { pid: MAC.controls, window_id: MAC.controlsWindow },
  });
  assert.equal(driver.world.named(MAC.controls, "Enable notifications").value, 0);
  assert.equal(driver.world.named(MAC.controls, "Name").value, "Grace");
});

Deno.test("darwin tools: get_accessibility_tree lists running apps and visible windows", async () => {
  await using driver = macDriver();
  const tree = await driver.ok("get_accessibility_tree");
  const text = JSON.stringify(tree);
  for (const name of ["TextEdit", "Controls", "Google Chrome"]) assert.ok(text.includes(name), name);
});

Deno.test("darwin tools: launch_app starts an app in the background and kill_app ends it", async () => {
  await using driver = macDriver();
  // The launch check reads the bundle on disk, so the fake Mac's Calculator lives in a real folder.
  const dir = await Deno.makeTempDir({ prefix: "cua-darwin-launch-" });
  try {
    const bundle = `${dir}/Calculator.app`;
    await Deno.mkdir(`${bundle}/Contents/MacOS`, { recursive: true });
    driver.world.bundles.set(bundle, {
      bundleId: "com.apple.calculator",
      name: "Calculator",
      executable: "Calculator",
    });
    const launched = await driver.ok("launch_app", { launch_path: bundle });
    const pid = launched.pid;
    assert.ok(driver.world.app(pid), "the fake Mac runs it");
    assert.equal(driver.world.frontmost, MAC.textEdit, "in the background");
    await driver.ok("kill_app", { pid });
    assert.equal(driver.world.app(pid), undefined);
    await driver.fails("launch_app", { launch_path: `${dir}/Nothing.app` }, "app_not_found");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("darwin tools: what macOS does not have yet refuses precisely", async () => {
  await using driver = macDriver();
  const cursor = await driver.fails(
    "set_agent_cursor_enabled",
    { enabled: true, session: "s1" },
    "unsupported_platform",
  );
  assert.match(cursor.message, /not implemented on macOS/);
  const state = await driver.ok("get_window_state", { pid: MAC.textEdit, window_id: MAC.textEditWindow });
  const parse = await driver.call("parse_visual_regions", { screenshot_id: state.screenshot_id });
  assert.equal(parse.isError, true);
  assert.match(String((parse.structuredContent as Structured).code), /unsupported_platform|not_installed/);
});
