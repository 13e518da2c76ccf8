import assert from "node:assert/strict";
import { heldButtons } from "../../src/engine/held_buttons.ts";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("mouse_button_down tool presses on a pointer of its own and keeps holding after the call", async () => {
  const kit = pointerKit();
  const result = await kit.call("mouse_button_down", { pid: 4242, window_id: WINDOW, x: 10, y: 20 });
  assert.deepEqual(result.structuredContent, {
    effect: "unverifiable",
    route: "global_input",
    delivery: { mode: "background", delivered_count: 1 },
  });
  assert.deepEqual(kit.pointerCalls(), [
    "input.extraPointer",
    "pointer.extra1.move 120,140",
    "pointer.extra1.down left",
  ]);
  assert.ok(kit.fake.calls.includes("input.releaseAll"), "the channel pointers were released as usual");
  assert.equal(heldButtons(kit.state).size, 1);
});

Deno.test("mouse_button_down tool refuses a second press on the same cursor, not on another", async () => {
  const kit = pointerKit();
  await kit.call("mouse_button_down", { target, x: 10, y: 20 });
  const again = await kit.call("mouse_button_down", { target, x: 30, y: 20, button: "right" });
  assert.equal(again.structuredContent?.code, "button_already_held");
  assert.equal(again.structuredContent?.button, "left");
  const other = await kit.call("mouse_button_down", { target, x: 30, y: 20, cursor_id: "second" });
  assert.equal(other.isError, undefined, JSON.stringify(other));
  assert.equal(kit.pointerCalls().filter((c) => c === "input.extraPointer").length, 2);
});

Deno.test("mouse_button_down tool refuses a covered point without creating a pointer", async () => {
  const kit = pointerKit();
  kit.fake.onTop = false;
  const result = await kit.call("mouse_button_down", { target, x: 10, y: 20 });
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.match(String(result.structuredContent?.hint), /background only/);
  assert.deepEqual(kit.pointerCalls(), []);
});

Deno.test("mouse_button_down tool refuses the desktop and a missing window", async () => {
  const kit = pointerKit();
  const desktop = await kit.call("mouse_button_down", { target: { kind: "desktop" }, x: 1, y: 1 });
  assert.equal(desktop.structuredContent?.code, "invalid_action_target");
  const gone = await kit.call("mouse_button_down", { pid: 4242, window_id: 999, x: 1, y: 1 });
  assert.equal(gone.structuredContent?.code, "window_target_not_found");
  assert.deepEqual(kit.pointerCalls(), []);
});
