import assert from "node:assert/strict";
import { z } from "../lib/schema/mod.ts";
import { FakeBackend } from "../backends/fake/mod.ts";
import { DriverError } from "../ports/errors.ts";
import { ToolRegistry } from "./registry.ts";
import { ok } from "./result.ts";
import { ConfigStore } from "./config.ts";
import { RuntimeState } from "./runtime_state.ts";
import { defineTool } from "./tool.ts";

const echo = defineTool({
  name: "echo",
  title: "Echo",
  description: "Echo a number.",
  group: "system",
  input: z.strictObject({ n: z.number().int(), session: z.string().optional() }),
  output: z.object({ n: z.number(), session: z.string().nullable() }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  capabilities: [],
  run(ctx, args) {
    return Promise.resolve(ok({ n: args.n, session: ctx.session.label }, `n=${args.n}`));
  },
});

const broken = defineTool({
  ...echo,
  name: "broken",
  run: () => Promise.resolve(ok({ wrong: true }, "oops")),
});

const throwing = defineTool({
  ...echo,
  name: "throwing",
  run: () => {
    throw new DriverError("window_target_not_found", "Window 7 does not exist", {
      hint: "call list_windows",
    });
  },
});

const crashing = defineTool({
  ...echo,
  name: "crashing",
  run: () => Promise.reject(new TypeError("boom")),
});

function registry() {
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  return new ToolRegistry([echo, broken, throwing, crashing], new FakeBackend(), state);
}
const opts = { lease: "test", transport: "cli" as const };

Deno.test("ToolRegistry.call runs a tool and returns its structured result", async () => {
  const result = await registry().call("echo", { n: 3 }, opts);
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, { n: 3, session: null });
});

Deno.test("ToolRegistry.call names the invalid field in invalid_arguments", async () => {
  const result = await registry().call("echo", { n: "three" }, opts);
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent?.code, "invalid_arguments");
  assert.equal(result.structuredContent?.field, "n");
  assert.equal(result.structuredContent?.status, "refused");
  // An MCP client gets pointed at tools/list, not told to run a CLI command.
  assert.match(String(result.structuredContent?.hint), /^the inputSchema of "echo" in tools\/list/);
});

Deno.test("ToolRegistry.call rejects unknown fields and non-object arguments", async () => {
  const extra = await registry().call("echo", { n: 1, nn: 2 }, opts);
  assert.equal(extra.structuredContent?.code, "invalid_arguments");
  assert.equal(extra.structuredContent?.field, "nn");
  const array = await registry().call("echo", [1, 2], opts);
  assert.equal(array.structuredContent?.code, "invalid_arguments");
  assert.equal(array.structuredContent?.field, "(root)");
});

Deno.test("ToolRegistry.call strips reserved underscore keys before validation", async () => {
  const result = await registry().call("echo", { n: 1, _session_id: "forged" }, opts);
  assert.equal(result.isError, undefined);
});

Deno.test("ToolRegistry.call reports unknown tools with a suggestion", async () => {
  const result = await registry().call("ecko", {}, opts);
  assert.equal(result.structuredContent?.code, "unknown_tool");
  assert.match(String(result.structuredContent?.hint), /"echo"/);
});

Deno.test("ToolRegistry.call turns DriverError into the refusal envelope", async () => {
  const result = await registry().call("throwing", { n: 1 }, opts);
  assert.equal(result.isError, true);
  assert.deepEqual(result.structuredContent, {
    status: "refused",
    code: "window_target_not_found",
    message: "Window 7 does not exist",
    hint: "call list_windows",
    refusal: { code: "window_target_not_found", message: "Window 7 does not exist" },
  });
  assert.equal(
    result.content[0].type === "text" && result.content[0].text,
    "Window 7 does not exist: call list_windows",
  );
});

Deno.test("ToolRegistry.call reports a bug as internal_error and keeps serving", async () => {
  const r = registry();
  const originalError = console.error;
  console.error = () => {};
  try {
    const result = await r.call("crashing", { n: 1 }, opts);
    assert.equal(result.structuredContent?.code, "internal_error");
  } finally {
    console.error = originalError;
  }
  assert.equal((await r.call("echo", { n: 2 }, opts)).isError, undefined);
});

Deno.test("ToolRegistry.call refuses output that does not match the schema", async () => {
  const result = await registry().call("broken", { n: 1 }, opts);
  assert.equal(result.structuredContent?.code, "typed_output_mismatch");
});

Deno.test("ToolRegistry.call gives named sessions their label and reuses them per lease", async () => {
  const r = registry();
  const result = await r.call("echo", { n: 1, session: "agent-a" }, opts);
  assert.equal(result.structuredContent?.session, "agent-a");
  await r.call("echo", { n: 1, session: "agent-a" }, opts);
  assert.equal(r.state.sessions.size, 1);
});

Deno.test("ToolRegistry.list advertises compact schemas; the full listing has anyOf success or error envelope", () => {
  const [entry] = registry().list();
  assert.equal(entry.name, "echo");
  assert.equal(entry.outputSchema?.type, "object");
  assert.equal(entry.outputSchema?.anyOf, undefined, "no required field: an error envelope passes as it is");
  const anyOf = (registry().fullListing("echo")!.outputSchema as { anyOf: unknown[] }).anyOf;
  assert.equal(anyOf.length, 2);
  assert.equal(entry.inputSchema.type, "object");
  assert.equal(entry.inputSchema.additionalProperties, false);
  assert.equal("$schema" in entry.inputSchema, false);
  assert.equal(entry.annotations?.readOnlyHint, true);
  assert.equal(entry.risk.class, "r0");
});

Deno.test("ToolRegistry keeps unlisted tools out of tools/list, calls them, and authorizes them as the listed tool", async () => {
  const hidden = defineTool({
    name: "transport_read",
    title: "Transport read",
    description: "Reads something for a transport.",
    group: "screen",
    listed: false,
    input: z.object({ window_id: z.number().optional() }),
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    risk: "r3",
    capabilities: [],
    authorizeAs: (args) => ({ tool: "echo", args: { text: String(args.window_id ?? "") } }),
    run: () => Promise.resolve(ok({ read: true }, "read")),
  });
  const asked: { tool: string; args: Record<string, unknown> }[] = [];
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  const registry = new ToolRegistry([echo, hidden], new FakeBackend(), state, (tool, args) => {
    asked.push({ tool: tool.name, args });
  });
  assert.deepEqual(registry.list().map((t) => t.name), ["echo"]);
  const result = await registry.call("transport_read", { window_id: 7 }, { lease: "l", transport: "grpc" });
  assert.deepEqual(result.structuredContent, { read: true });
  assert.deepEqual(asked, [{ tool: "echo", args: { text: "7" } }]);
});
