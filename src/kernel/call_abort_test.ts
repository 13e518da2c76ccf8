import assert from "node:assert/strict";
import { z } from "../lib/schema/mod.ts";
import type { Point } from "../ports/geometry.ts";
import type { RawPointer } from "../ports/input.ts";
import { FakeBackend } from "../backends/fake/mod.ts";
import { InputLock } from "./input_lock.ts";
import { dragAlong } from "../engine/gesture.ts";
import { abortReason, pause, reasonOf, settledOrAborted, watchTarget } from "./call_abort.ts";
import type { DriverError } from "../ports/errors.ts";
import { ToolRegistry } from "./registry.ts";
import { ok } from "./result.ts";
import { RuntimeState } from "./runtime_state.ts";
import { defineTool } from "./tool.ts";

/** A pointer that records what it was told. */
function recordingPointer() {
  const events: string[] = [];
  const pointer: RawPointer = {
    move: (p: Point) => Promise.resolve(void events.push(`move ${p.x},${p.y}`)),
    button: (b, down) => Promise.resolve(void events.push(`${b} ${down ? "down" : "up"}`)),
    wheel: () => Promise.resolve(0),
    releaseAll: () => Promise.resolve(),
    sync: () => Promise.resolve(),
    position: () => Promise.resolve(null),
  };
  return { pointer, events };
}

Deno.test("dragAlong stops moving when aborted, releases the button and says how far it got", async () => {
  const { pointer, events } = recordingPointer();
  const controller = new AbortController();
  const path = Array.from({ length: 11 }, (_, i) => ({ x: i * 10, y: 0 }));
  const drag = dragAlong(pointer, path, "left", 1000, controller.signal);
  while (!events.includes("move 20,0")) await pause(1);
  controller.abort();
  await assert.rejects(drag, (e: DriverError) => {
    assert.equal(e.code, "aborted");
    assert.equal(e.data.reason, "cancelled");
    assert.equal(e.data.planned_count, 10);
    assert.ok((e.data.delivered_count as number) >= 2 && (e.data.delivered_count as number) < 10);
    return true;
  });
  assert.equal(events.at(-1), "left up", "the button is released last");
  assert.ok(!events.includes("move 100,0"), "the drag never reached its end");
});

Deno.test("InputLock lets a caller that gave up leave the queue without reordering the others", async () => {
  const lock = new InputLock();
  const order: string[] = [];
  let releaseFirst!: () => void;
  const first = lock.run(() =>
    new Promise<void>((resolve) => releaseFirst = () => resolve(void order.push("first")))
  );
  const controller = new AbortController();
  const second = lock.run(() => Promise.resolve(void order.push("second")), controller.signal);
  const third = lock.run(() => Promise.resolve(void order.push("third")));
  controller.abort(abortReason("session_ended", "gone"));
  await assert.rejects(second, (e: DriverError) => e.code === "aborted" && e.data.reason === "session_ended");
  assert.deepEqual(order, [], "the first holder still runs; the third still waits for it");
  releaseFirst();
  await Promise.all([first, third]);
  assert.deepEqual(order, ["first", "third"]);
});

Deno.test("pause, settledOrAborted and reasonOf end early and name the reason", async () => {
  const controller = new AbortController();
  const long = pause(60_000, controller.signal);
  const waiting = settledOrAborted(new Promise(() => {}), controller.signal);
  controller.abort(abortReason("target_exited", "gone"));
  await long;
  await waiting;
  assert.equal(reasonOf(controller.signal), "target_exited");
  assert.equal(reasonOf(AbortSignal.abort()), "cancelled");
  const timedOut = AbortSignal.timeout(1);
  await pause(50, timedOut);
  assert.equal(reasonOf(timedOut), "timeout");
});

Deno.test("watchTarget aborts a registered call when its target process exits", async () => {
  const backend = new FakeBackend();
  const pid = 4242;
  backend.alive.add(pid);
  let seen: AbortSignal | null = null;
  const waits = defineTool({
    name: "waits",
    title: "Waits",
    description: "Watches a target and waits to be aborted.",
    group: "input",
    input: z.object({}),
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    risk: "r1",
    capabilities: [],
    async run(ctx) {
      seen = ctx.signal;
      watchTarget(ctx, pid);
      await pause(60_000, ctx.signal);
      return ok({ aborted: ctx.signal.aborted }, "done");
    },
  });
  const registry = new ToolRegistry([waits], backend, new RuntimeState());
  const call = registry.call("waits", {}, { lease: "l", transport: "cli" });
  while (seen === null) await pause(1);
  backend.alive.delete(pid);
  const result = await call;
  assert.deepEqual(result.structuredContent, { aborted: true });
  assert.equal(reasonOf(seen!), "target_exited");
});

Deno.test("registry reports a call stopped by its transport's signal as aborted or timeout, never internal_error", async () => {
  // A tool that rejects with whatever its signal carried, as signal.throwIfAborted() does.
  const throwsReason = defineTool({
    name: "throws_reason",
    title: "Throws the reason",
    description: "Waits for its signal, then throws its reason.",
    group: "input",
    input: z.object({}),
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    risk: "r0",
    capabilities: [],
    async run(ctx) {
      await pause(60_000, ctx.signal);
      ctx.signal.throwIfAborted();
      return ok({}, "not aborted");
    },
  });
  const registry = new ToolRegistry([throwsReason], new FakeBackend(), new RuntimeState());
  // A gRPC client's cancel: connect aborts the handler's signal with its own error.
  const cancelled = new AbortController();
  const cancelling = registry.call("throws_reason", {}, {
    lease: "a",
    transport: "grpc",
    signal: cancelled.signal,
  });
  cancelled.abort(new Error("operation was aborted by the client"));
  const result = await cancelling;
  assert.equal(result.isError, true);
  assert.equal((result.structuredContent as { code: string }).code, "aborted");
  // A deadline.
  const deadline = new AbortController();
  const expiring = registry.call("throws_reason", {}, {
    lease: "b",
    transport: "grpc",
    signal: deadline.signal,
  });
  deadline.abort(new DOMException("deadline exceeded", "TimeoutError"));
  const expired = (await expiring).structuredContent as { code: string; reason: string };
  assert.equal(expired.code, "timeout");
  assert.equal(expired.reason, "timeout");
});
