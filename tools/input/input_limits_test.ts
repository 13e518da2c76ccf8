import assert from "node:assert/strict";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

function refusal(result: { isError?: true; structuredContent?: Record<string, unknown> }) {
  assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as { code: string; field?: string; message: string };
}

Deno.test("type_text refuses text and delays that would keep one call over a minute, and types nothing", async () => {
  const kit = pointerKit();
  const slow = refusal(await kit.call("type_text", { target, text: "x".repeat(601), delay_ms: 100 }));
  assert.equal(slow.code, "invalid_arguments");
  assert.equal(slow.field, "delay_ms");
  const long = refusal(await kit.call("type_text", { target, text: "x".repeat(20_001) }));
  assert.equal(long.code, "invalid_arguments");
  assert.equal(long.field, "text");
  assert.equal(kit.fake.calls.some((c) => c.startsWith("keyboard.")), false, "no keys were sent");
});

Deno.test("run_actions refuses a batch whose paced input adds up to more than a minute, and runs none of it", async () => {
  const kit = pointerKit();
  const drag = {
    tool: "drag",
    arguments: { target, from_x: 1, from_y: 1, to_x: 5, to_y: 5, duration_ms: 10_000 },
  };
  const batch = refusal(await kit.call("run_actions", { actions: Array.from({ length: 7 }, () => drag) }));
  assert.equal(batch.code, "invalid_arguments");
  assert.equal(batch.field, "actions");
  assert.match(batch.message, /70 s/);
  assert.deepEqual(kit.pointerCalls(), [], "nothing moved");
});
