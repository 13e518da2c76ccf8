import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("mouse_drag tool moves the held pointer in steps without releasing", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  const result = await kit.call("mouse_drag", { x: 50, y: 10, steps: 2, duration_ms: 0 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.pointerCalls().slice(3), [
    "pointer.extra1.move 160,120",
    "pointer.extra1.move 200,120",
  ]);
  const next = await kit.call("mouse_drag", { x: 50, y: 30, steps: 1, duration_ms: 0 });
  assert.equal(next.isError, undefined);
  assert.equal(kit.pointerCalls().at(-1), "pointer.extra1.move 200,160", "continues from where it was");
});

Deno.test("mouse_drag tool without a held button is button_not_held", async () => {
  const kit = pointerKit();
  const result = await kit.call("mouse_drag", { x: 50, y: 10 });
  assert.equal(result.structuredContent?.code, "button_not_held");
  kit.screenshot("test", "a");
  const otherSession = await kit.call("mouse_button_down", { target, x: 10, y: 10, session: "a" });
  assert.equal(otherSession.isError, undefined);
  const fromDefault = await kit.call("mouse_drag", { x: 50, y: 10 });
  assert.equal(fromDefault.structuredContent?.code, "button_not_held", "holds are per session");
});

Deno.test("mouse_drag tool refuses another window than the holding one", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  const result = await kit.call("mouse_drag", { x: 50, y: 10, window_id: 12345 });
  assert.equal(result.structuredContent?.code, "invalid_arguments");
  assert.equal(result.structuredContent?.field, "window_id");
});

Deno.test("mouse_drag tool refuses a covered path and keeps the button held", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  kit.fake.onTop = (p) => p.x < 180;
  const result = await kit.call("mouse_drag", { x: 50, y: 10, steps: 4, duration_ms: 0 });
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.ok(!kit.pointerCalls().some((c) => c.includes("up") || c.includes("close")));
  kit.fake.onTop = true;
  const up = await kit.call("mouse_button_up", {});
  assert.equal(up.isError, undefined, "still held, so it can be released");
});

Deno.test("mouse_drag tool confirms a held slider's value change", async () => {
  const kit = pointerKit();
  const slider = fakeElement({ actions: [], value: 0, frame: { x: 110, y: 110, width: 300, height: 20 } });
  kit.snapshot([{
    role: "slider",
    platformRole: "slider",
    label: "sld-value",
    ref: slider,
    frame: slider.frame,
  }]);
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  kit.fake.onPointer = (_p, what) => {
    if (what.startsWith("move")) slider.value = 25;
  };
  const result = await kit.call("mouse_drag", { x: 60, y: 10, steps: 1, duration_ms: 0 });
  assert.equal(result.structuredContent?.effect, "confirmed");
});
