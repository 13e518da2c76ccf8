import assert from "node:assert/strict";
import { ConfigStore } from "./config.ts";
import { RuntimeState, type StateSlot } from "./runtime_state.ts";

function countingSlot(): StateSlot<{ made: number }> & { made: number } {
  const slot = {
    name: "counting",
    made: 0,
    wanted: (capabilities: readonly string[]) => capabilities.some((c) => c.startsWith("counting.")),
    async create(state: RuntimeState) {
      await Promise.resolve();
      slot.made++;
      state.sessions.addCleanupHook("counting", () => {});
      return { made: slot.made };
    },
  };
  return slot;
}

Deno.test("RuntimeState creates a slot once, when a tool that wants it is prepared", async () => {
  const slot = countingSlot();
  const state = new RuntimeState(
    new ConfigStore("/nonexistent/c.json"),
    "standard",
    new Set(),
    undefined,
    undefined,
    [
      slot,
    ],
  );
  assert.equal(state.peek(slot), undefined);
  assert.throws(() => state.slot(slot), /slot "counting" is used before prepare\(\) created it/);
  await state.prepare(["screen.read"]);
  assert.equal(slot.made, 0, "a tool that does not want it leaves it uncreated");
  await Promise.all([state.prepare(["counting.a"]), state.prepare(["counting.b"])]);
  await state.prepare(["counting.a"]);
  assert.equal(slot.made, 1, "concurrent and later prepares share one value");
  assert.deepEqual(state.slot(slot), { made: 1 });
  assert.equal(state.peek(slot), state.slot(slot));
});

Deno.test("RuntimeState without a slot refuses to hand it out", async () => {
  const slot = countingSlot();
  const state = new RuntimeState(new ConfigStore("/nonexistent/c.json"));
  await state.prepare(["counting.a"]);
  assert.equal(slot.made, 0);
  assert.throws(() => state.slot(slot), TypeError);
});
