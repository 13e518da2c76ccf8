import assert from "node:assert/strict";
import type { HealthCheck } from "../../src/ports/health.ts";
import { systemKit } from "./_test_kit.ts";
import { HEALTH_CHECKS } from "./health_report.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const PLATFORM: HealthCheck[] = ["display", "window_manager", "accessibility", "capture", "input"].map((
  name,
) => ({
  name,
  status: "pass",
  message: `${name} fine`,
}));

Deno.test("health_report runs every check once and reports ok with a readable table", async () => {
  await using kit = systemKit();
  kit.fake.healthChecks = PLATFORM;
  const result = await kit.call("health_report");
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const out = result.structuredContent as Any;
  assert.equal(out.schema_version, "1");
  assert.equal(out.platform, "linux");
  assert.equal(out.overall, "ok");
  assert.deepEqual(out.checks.map((c: Any) => c.name), [...HEALTH_CHECKS]);
  assert.ok(out.checks.every((c: Any) => c.status === "pass"), JSON.stringify(out.checks));
  assert.equal(out.checks.find((c: Any) => c.name === "binary_version").data.version, out.driver_version);
  const daemon = out.checks.find((c: Any) => c.name === "daemon");
  assert.equal(daemon.data.this_pid, Deno.pid);
  const text = result.content[0].type === "text" ? result.content[0].text : "";
  const lines = text.split("\n");
  assert.match(lines[0], /overall: ok/);
  assert.match(lines[1], /^CHECK\s+STATUS\s+MESSAGE$/);
  for (const name of HEALTH_CHECKS) {
    assert.ok(lines.some((l) => new RegExp(`^${name}\\s+pass\\s+`).test(l)), name);
  }
  assert.equal(kit.fake.calls.filter((c) => c.startsWith("health")).length, 1);
});

Deno.test("health_report include runs only the named checks and wins over skip", async () => {
  await using kit = systemKit();
  kit.fake.healthChecks = PLATFORM;
  const out = (await kit.call("health_report", { include: ["display", "binary_version"], skip: ["display"] }))
    .structuredContent as Any;
  const ran = out.checks.filter((c: Any) => c.status !== "skip").map((c: Any) => c.name);
  assert.deepEqual(ran, ["binary_version", "display"]);
  assert.ok(kit.fake.calls.includes("health display"), kit.fake.calls.join());
  assert.equal(out.checks.length, HEALTH_CHECKS.length);
  assert.equal(out.checks.find((c: Any) => c.name === "capture").message, "not in include");
});

Deno.test("health_report skip leaves checks out without probing them", async () => {
  await using kit = systemKit();
  kit.fake.healthChecks = PLATFORM;
  const out = (await kit.call("health_report", { skip: ["accessibility", "capture", "daemon"] }))
    .structuredContent as Any;
  const skipped = out.checks.filter((c: Any) => c.status === "skip").map((c: Any) => c.name);
  assert.deepEqual(skipped, ["accessibility", "capture", "daemon"]);
  assert.ok(kit.fake.calls.includes("health display,window_manager,input"), kit.fake.calls.join());
  assert.equal(out.overall, "ok");
});

Deno.test("health_report overall: a display failure is failed, a window manager failure degraded", async () => {
  await using kit = systemKit();
  kit.fake.healthChecks = PLATFORM.map((c) =>
    c.name === "window_manager" ? { ...c, status: "fail", message: "none", hint: "start openbox" } : c
  );
  const degraded = await kit.call("health_report");
  assert.equal((degraded.structuredContent as Any).overall, "degraded");
  const text = degraded.content[0].type === "text" ? degraded.content[0].text : "";
  assert.match(text, /hint window_manager: start openbox/);
  kit.fake.healthChecks = PLATFORM.map((c) =>
    c.name === "display" ? { ...c, status: "fail", message: "gone" } : c
  );
  assert.equal(((await kit.call("health_report")).structuredContent as Any).overall, "failed");
});

Deno.test("health_report turns a back end that throws into failed platform checks", async () => {
  await using kit = systemKit();
  kit.fake.health = () => Promise.reject(new Error("X went away"));
  const out = (await kit.call("health_report", { include: ["display", "input"] })).structuredContent as Any;
  assert.equal(out.overall, "failed");
  assert.match(out.checks.find((c: Any) => c.name === "input").message, /X went away/);
});

Deno.test("health_report rejects unknown check names, naming the valid ones", async () => {
  await using kit = systemKit();
  const result = await kit.call("health_report", { include: ["gpu"] });
  assert.equal(result.isError, true);
  const envelope = result.structuredContent as Any;
  assert.equal(envelope.code, "invalid_arguments");
  assert.match(envelope.field, /^include/);
  assert.match(envelope.message, /binary_version/);
});
