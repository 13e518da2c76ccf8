/**
 * The tool registry over the macOS back end on a fake Mac, for tests: `await using driver =
 * macDriver()` closes the back end and checks the fake for leaked or over-released objects.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { fakeMacBackend } from "../../src/backends/darwin/_fake/harness.ts";
import { allTools } from "../../tools/mod.ts";

// deno-lint-ignore no-explicit-any
export type Structured = Record<string, any>;

export function macDriver() {
  const mac = fakeMacBackend();
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  const registry = new ToolRegistry(allTools, mac.backend, state);
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> =>
    registry.call(name, args, { lease: "darwin-test", transport: "cli" });
  const text = (result: ToolResult) =>
    result.content.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n");
  return {
    mac,
    registry,
    world: mac.fake.world,
    call,
    async ok(name: string, args: Record<string, unknown> = {}): Promise<Structured> {
      const result = await call(name, args);
      assert.equal(result.isError, undefined, `${name}: ${text(result).slice(0, 500)}`);
      return (result.structuredContent ?? {}) as Structured;
    },
    async fails(name: string, args: Record<string, unknown>, code: string): Promise<Structured> {
      const result = await call(name, args);
      assert.equal(result.isError, true, `${name} should fail with ${code}: ${text(result).slice(0, 500)}`);
      const envelope = (result.structuredContent ?? {}) as Structured;
      assert.equal(envelope.code, code, `${name}: ${text(result).slice(0, 500)}`);
      return envelope;
    },
    async [Symbol.asyncDispose]() {
      await mac[Symbol.asyncDispose]();
    },
  };
}
