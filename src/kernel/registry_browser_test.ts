import assert from "node:assert/strict";
import { z } from "../lib/schema/mod.ts";
import { FakeBackend } from "../backends/fake/mod.ts";
import { ActionResultSchema } from "../engine/action_result.ts";
import { ConfigStore } from "./config.ts";
import { DriverError } from "../ports/errors.ts";
import { ToolRegistry } from "./registry.ts";
import { RuntimeState } from "./runtime_state.ts";
import { defineTool } from "./tool.ts";

const refusing = defineTool({
  name: "browser_refusing",
  title: "Refusing",
  description: "A browser tool that refuses or fails on request.",
  group: "browser",
  input: z.strictObject({ code: z.string() }),
  output: ActionResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  risk: "r2",
  capabilities: [],
  run(_ctx, args) {
    throw new DriverError(args.code as "browser_ref_stale", "Ref p1:2 is from an older snapshot", {
      ref: "p1:2",
      hint: "call get_browser_state",
    });
  },
});

function registry() {
  return new ToolRegistry(
    [refusing],
    new FakeBackend(),
    new RuntimeState(new ConfigStore("/nonexistent/c.json")),
  );
}
const opts = { lease: "test", transport: "cli" as const };

Deno.test("ToolRegistry returns browser refusals without isError, in the browser refusal shape", async () => {
  const result = await registry().call("browser_refusing", { code: "browser_ref_stale" }, opts);
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content[0], {
    type: "text",
    text: "refused (browser_ref_stale): Ref p1:2 is from an older snapshot",
  });
  assert.deepEqual(result.structuredContent, {
    status: "refused",
    refusal: {
      code: "browser_ref_stale",
      message: "Ref p1:2 is from an older snapshot",
      detail: { ref: "p1:2", hint: "call get_browser_state" },
    },
  });
});

Deno.test("ToolRegistry keeps browser failures and bad arguments as isError", async () => {
  const failed = await registry().call("browser_refusing", { code: "timeout" }, opts);
  assert.equal(failed.isError, true);
  assert.equal((failed.structuredContent as { code: string }).code, "timeout");
  const invalid = await registry().call("browser_refusing", { code: 3 }, opts);
  assert.equal(invalid.isError, true);
  assert.equal((invalid.structuredContent as { code: string }).code, "invalid_arguments");
});
