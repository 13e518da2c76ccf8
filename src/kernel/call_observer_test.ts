import assert from "node:assert/strict";
import { z } from "../lib/schema/mod.ts";
import { FakeBackend } from "../backends/fake/mod.ts";
import type { CallObserver } from "./call_observer.ts";
import { ConfigStore } from "./config.ts";
import { DriverError } from "../ports/errors.ts";
import { ToolRegistry } from "./registry.ts";
import { ok, type ToolResult } from "./result.ts";
import { RuntimeState } from "./runtime_state.ts";
import { defineTool } from "./tool.ts";

const act = defineTool({
  name: "act",
  title: "Act",
  description: "Succeeds, or fails with window_stale.",
  group: "input",
  input: z.strictObject({ fail: z.boolean().default(false) }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  risk: "r1",
  capabilities: [],
  run(_ctx, args) {
    if (args.fail) return Promise.reject(new DriverError("window_stale", "Gone"));
    return Promise.resolve(ok({ done: true }, "done"));
  },
});

function registry(observers: CallObserver[]) {
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  state.callObservers.clear();
  for (const observer of observers) state.callObservers.add(observer);
  return new ToolRegistry([act], new FakeBackend(), state);
}
const opts = { lease: "test", transport: "cli" as const };

Deno.test("call observers see each authorized call with its arguments and its result, failures included", async () => {
  const seen: [string, Record<string, unknown>, boolean, ToolResult | null][] = [];
  const observer: CallObserver = {
    before(call) {
      const entry: (typeof seen)[number] = [call.tool.name, { ...call.args }, call.nested, null];
      seen.push(entry);
      return (result) => void (entry[3] = result);
    },
  };
  const reg = registry([observer]);
  assert.equal((await reg.call("act", { _meta: 1 }, opts)).isError, undefined);
  assert.equal((await reg.call("act", { fail: true }, opts)).isError, true);
  await reg.call("act", { bogus: 1 }, opts); // invalid: never runs, never observed
  assert.equal(seen.length, 2);
  assert.deepEqual(seen[0].slice(0, 3), ["act", {}, false]);
  assert.deepEqual(seen[0][3]?.structuredContent, { done: true });
  assert.equal(seen[1][3]?.isError, true);
  assert.equal(seen[1][3]?.structuredContent?.code, "window_stale");
});

Deno.test("a failing call observer never changes or fails the call", async () => {
  const reg = registry([
    { before: () => Promise.reject(new Error("observer broke")) },
    { before: () => () => Promise.reject(new Error("finisher broke")) },
  ]);
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    const result = await reg.call("act", {}, opts);
    assert.deepEqual(result.structuredContent, { done: true });
  } finally {
    console.error = original;
  }
  assert.equal(errors.length, 2);
});
