import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("scroll tool turns the wheel at the mapped point with the private pointer", async () => {
  const kit = pointerKit();
  kit.fake.appReacts(WINDOW);
  const result = await kit.call("scroll", { target, direction: "down", x: 50, y: 50 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const { points, ...rest } = result.structuredContent as Record<string, unknown>;
  // The app changed, but no scroll bar says a view moved: not confirmed.
  assert.deepEqual(rest, {
    effect: "unverifiable",
    route: "global_input",
    delivery: { mode: "background", delivered_count: 3 },
  });
  assert.deepEqual(
    (points as { screenshot_id?: string }[]).map(({ screenshot_id: id, ...p }) => ({
      ...p,
      pinned: /^c/.test(id ?? ""),
    })),
    [{ x: 50, y: 50, coordinate_space: "screenshot", screen: { x: 200, y: 200 }, pinned: true }],
    "each point as given and as a screen point",
  );
  // x, y are screenshot pixels (half size): the wheel goes to screen (200, 200), not (50, 50).
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll")), [
    "pointer.background.move 200,200",
    "pointer.background.wheel 0,3",
  ]);
});

Deno.test("scroll tool maps direction, amount and by: page to signed detents", async () => {
  const kit = pointerKit();
  await kit.call("scroll", { target, direction: "left", amount: 2, by: "page", x: 50, y: 50 });
  await kit.call("scroll", { target, direction: "up", amount: 1, x: 50, y: 50 });
  const wheels = kit.pointerCalls().filter((c) => c.includes("wheel"));
  assert.deepEqual(wheels, ["pointer.background.wheel -10,0", "pointer.background.wheel 0,-1"]);
});

Deno.test("scroll tool without a point or element scrolls at the window's centre", async () => {
  const kit = pointerKit();
  const result = await kit.call("scroll", { target, direction: "down" });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.ok(kit.pointerCalls().includes("pointer.background.move 300,250"));
});

Deno.test("scroll tool fires an element's scroll action `amount` times through AT-SPI", async () => {
  const kit = pointerKit();
  const pane = fakeElement({ actions: ["scrollUp", "scrollDown"], hasValue: false });
  const [token] = kit.snapshot([{
    role: "scroll_area",
    platformRole: "scroll pane",
    label: "list",
    ref: pane,
  }]);
  const result = await kit.call("scroll", { element_token: token, direction: "down", amount: 4 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(result.structuredContent?.route, "accessibility");
  // The pane changed nothing the fake app shows: a suspected no-op, try the wheel.
  assert.equal(result.structuredContent?.effect, "suspected_noop");
  assert.deepEqual(result.structuredContent?.escalation, { target: "pixel", reason: "suspected_noop" });
  assert.equal(pane.activations, 4);
  assert.equal(kit.fake.calls.filter((c) => c === "ax.doAction scrollDown").length, 4);
  assert.ok(!kit.pointerCalls().some((c) => c.includes("wheel")));
});

Deno.test("scroll tool moves a slider's value by step x amount and confirms it", async () => {
  const kit = pointerKit();
  const slider = fakeElement({ actions: [], value: 10 });
  const [token] = kit.snapshot([{ role: "slider", platformRole: "slider", label: "sld-value", ref: slider }]);
  const result = await kit.call("scroll", { element_token: token, direction: "right", amount: 5 });
  assert.equal(result.structuredContent?.effect, "confirmed");
  assert.deepEqual(result.structuredContent?.evidence, [{ kind: "value_readback" }]);
  assert.equal(slider.value, 15);
  await kit.call("scroll", { element_token: token, direction: "up", amount: 50 });
  assert.equal(slider.value, 0, "clamped to the minimum");
});

Deno.test("scroll tool reports a value already at its limit as suspected_noop and sets nothing", async () => {
  const kit = pointerKit();
  const slider = fakeElement({ actions: [], value: 100 });
  const [token] = kit.snapshot([{ role: "slider", platformRole: "slider", label: "sld-value", ref: slider }]);
  const result = await kit.call("scroll", { element_token: token, direction: "down" });
  assert.equal(result.structuredContent?.effect, "suspected_noop");
  assert.ok(!kit.fake.calls.includes("ax.setValue"));
});

Deno.test("scroll tool wheels at an element without scroll actions or value", async () => {
  const kit = pointerKit();
  const area = fakeElement({
    actions: [],
    hasValue: false,
    frame: { x: 150, y: 150, width: 100, height: 50 },
  });
  const [token] = kit.snapshot([{
    role: "group",
    platformRole: "panel",
    label: "area",
    ref: area,
    frame: area.frame,
  }]);
  const result = await kit.call("scroll", { element_token: token, direction: "down", amount: 1 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll")), [
    "pointer.background.move 200,175",
    "pointer.background.wheel 0,1",
  ]);
});

Deno.test("scroll tool confirms a pixel scroll by the scroll bar beside the point", async () => {
  const kit = pointerKit();
  const bar = fakeElement({ actions: [], value: 0, frame: { x: 380, y: 150, width: 12, height: 120 } });
  kit.snapshot([{ role: "scroll_bar", platformRole: "scroll bar", label: "", ref: bar, frame: bar.frame }]);
  kit.fake.onPointer = (_pointer, what) => {
    if (what.startsWith("wheel")) bar.value = 36;
  };
  const result = await kit.call("scroll", { target, direction: "down", x: 100, y: 50 });
  assert.equal(result.structuredContent?.effect, "confirmed");
  assert.match((result.content[0] as { text: string }).text, /scroll bar "" value 0 -> 36/);
});

Deno.test("scroll tool refuses a covered point and sends no wheel", async () => {
  const kit = pointerKit();
  kit.fake.onTop = false;
  const result = await kit.call("scroll", { target, direction: "down", x: 50, y: 50 });
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.ok(!kit.pointerCalls().some((c) => /wheel|move/.test(c)));
});

Deno.test("scroll tool on the desktop needs screen x, y and uses the user's pointer", async () => {
  const kit = pointerKit();
  const missing = await kit.call("scroll", { target: { kind: "desktop" }, direction: "down" });
  assert.equal(missing.structuredContent?.code, "invalid_arguments");
  assert.equal(missing.structuredContent?.field, "x");
  const result = await kit.call("scroll", { scope: "desktop", direction: "up", x: 30, y: 40 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll")), [
    "pointer.global.move 30,40",
    "pointer.global.wheel 0,-3",
  ]);
});

Deno.test("scroll tool validates direction and amount", async () => {
  const kit = pointerKit();
  for (
    const [args, field] of [[{ direction: "sideways" }, "direction"], [
      { direction: "up", amount: 51 },
      "amount",
    ]]
  ) {
    const result = await kit.call("scroll", { target, ...(args as object) });
    assert.equal(result.structuredContent?.code, "invalid_arguments");
    assert.equal(result.structuredContent?.field, field);
  }
});
