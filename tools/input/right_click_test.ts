import assert from "node:assert/strict";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("right_click tool presses the right button once with the private pointer", async () => {
  const kit = pointerKit();
  const result = await kit.call("right_click", { target, x: 10, y: 10 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(result.structuredContent?.delivery, { mode: "background", delivered_count: 1 });
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll")), [
    "pointer.background.move 120,120",
    "pointer.background.down right",
    "pointer.background.up right",
  ]);
});

Deno.test("right_click tool holds modifiers on the private keyboard pointed at the window", async () => {
  const kit = pointerKit();
  const result = await kit.call("right_click", { target, x: 10, y: 10, modifier: ["shift"] });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const calls = kit.fake.calls;
  assert.ok(calls.includes(`input.withBackgroundKeyboard ${WINDOW}`));
  assert.ok(calls.indexOf("keyboard.background.down shift") < calls.indexOf("pointer.background.down right"));
});

Deno.test("right_click tool in foreground runs in the window transaction with the user's pointer", async () => {
  const kit = pointerKit();
  const result = await kit.call("right_click", { target, x: 10, y: 10, delivery_mode: "foreground" });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal((result.structuredContent?.delivery as { mode: string }).mode, "foreground");
  assert.ok(kit.fake.calls.includes(`input.withForeground ${WINDOW}`));
  assert.ok(kit.pointerCalls().includes("pointer.global.down right"));
});

Deno.test("right_click tool rejects an unknown modifier before sending anything", async () => {
  const kit = pointerKit();
  const result = await kit.call("right_click", { target, x: 10, y: 10, modifier: ["hyper"] });
  assert.equal(result.structuredContent?.code, "invalid_arguments");
  assert.equal(result.structuredContent?.field, "modifier");
  assert.ok(!kit.pointerCalls().some((c) => /down|move/.test(c)));
});

Deno.test("right_click tool refuses pixels of a window without a screenshot in this session", async () => {
  const kit = pointerKit();
  const result = await kit.call("right_click", { target, x: 10, y: 10 }, "other-lease");
  assert.equal(result.structuredContent?.code, "screenshot_context_missing");
});
