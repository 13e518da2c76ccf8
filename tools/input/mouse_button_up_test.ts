import assert from "node:assert/strict";
import { heldButtons } from "../../src/engine/held_buttons.ts";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("mouse_button_up tool releases where the button is and removes the pointer", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 10, button: "middle" });
  const result = await kit.call("mouse_button_up", {});
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.pointerCalls().slice(3), [
    "pointer.extra1.up middle",
    "pointer.extra1.close",
  ]);
  assert.equal(heldButtons(kit.state).size, 0);
  const again = await kit.call("mouse_button_up", {});
  assert.equal(again.structuredContent?.code, "button_not_held");
});

Deno.test("mouse_button_up tool moves to x, y before releasing", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  await kit.call("mouse_button_up", { x: 40, y: 10 });
  assert.deepEqual(kit.pointerCalls().slice(3, 5), ["pointer.extra1.move 180,120", "pointer.extra1.up left"]);
});

Deno.test("mouse_button_up tool releases even when the window has gone", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  kit.fake.windowsList = [];
  kit.fake.alive.clear();
  const result = await kit.call("mouse_button_up", { x: 40, y: 10 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.match((result.content[0] as { text: string }).text, /is gone, so x, y were ignored/);
  assert.ok(kit.pointerCalls().includes("pointer.extra1.up left"));
  assert.equal(heldButtons(kit.state).size, 0);
});

Deno.test("mouse_button_up tool confirms a slider pressed by mouse_button_down", async () => {
  const kit = pointerKit();
  const slider = fakeElement({ actions: [], value: 3, frame: { x: 110, y: 110, width: 300, height: 20 } });
  kit.snapshot([{
    role: "slider",
    platformRole: "slider",
    label: "sld-value",
    ref: slider,
    frame: slider.frame,
  }]);
  await kit.call("mouse_button_down", { target, x: 10, y: 10 });
  slider.value = 60;
  const result = await kit.call("mouse_button_up", {});
  assert.equal(result.structuredContent?.effect, "confirmed");
  assert.match((result.content[0] as { text: string }).text, /value 3 -> 60/);
});

Deno.test("mouse_button_up tool releases the holds of a session that ends", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "worker");
  const down = await kit.call("mouse_button_down", { target, x: 10, y: 10, session: "worker" });
  assert.equal(down.isError, undefined, JSON.stringify(down));
  await kit.state.sessions.end("test", "worker", "end_session");
  assert.ok(kit.pointerCalls().includes("pointer.extra1.up left"));
  assert.ok(kit.pointerCalls().includes("pointer.extra1.close"));
  assert.equal(heldButtons(kit.state).size, 0);
});
