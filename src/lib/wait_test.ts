import assert from "node:assert/strict";
import { holdsFor, ManualClock, realClock, sleep, waitUntil } from "./wait.ts";

Deno.test("waitUntil returns true once the check holds, polling on the clock", async () => {
  const clock = new ManualClock();
  let calls = 0;
  assert.equal(await waitUntil(() => ++calls === 4, 1_000, { clock }), true);
  assert.equal(calls, 4);
  assert.deepEqual(clock.sleeps, [10, 10, 10]);
});

Deno.test("waitUntil gives up at the timeout after one last check past the deadline", async () => {
  const clock = new ManualClock();
  const seen: number[] = [];
  assert.equal(await waitUntil(() => (seen.push(clock.now()), false), 400, { clock }), false);
  assert.equal(seen[0], 0);
  assert.equal(seen.at(-1), 400);
  assert.equal(seen.length, 41);
});

Deno.test("waitUntil counts a condition that becomes true at the deadline", async () => {
  const clock = new ManualClock();
  assert.equal(await waitUntil(() => clock.now() >= 100, 100, { clock, intervalMs: 25 }), true);
  assert.deepEqual(clock.sleeps, [25, 25, 25, 25]);
});

Deno.test("holdsFor fails at the first broken check and passes a check that keeps holding", async () => {
  const clock = new ManualClock();
  assert.equal(await holdsFor(() => clock.now() < 30, 60, { clock }), false);
  assert.equal(clock.now(), 30);
  const steady = new ManualClock();
  let checks = 0;
  assert.equal(await holdsFor(() => (++checks, true), 60, { clock: steady }), true);
  assert.equal(checks, 7);
});

Deno.test("waitUntil and sleep stop with the signal's reason when it aborts", async () => {
  const controller = new AbortController();
  const reason = new Error("call cancelled");
  const waiting = waitUntil(() => false, 60_000, { signal: controller.signal });
  const sleeping = sleep(60_000, { signal: controller.signal });
  controller.abort(reason);
  await assert.rejects(waiting, (e) => e === reason);
  await assert.rejects(sleeping, (e) => e === reason);
  await assert.rejects(realClock.sleep(1, controller.signal), (e) => e === reason);
  const clock = new ManualClock();
  await assert.rejects(holdsFor(() => true, 50, { clock, signal: controller.signal }), (e) => e === reason);
  assert.deepEqual(clock.sleeps, []);
});

Deno.test("realClock.sleep waits about its time", async () => {
  const started = realClock.now();
  await realClock.sleep(20);
  assert.ok(realClock.now() - started >= 19);
});
