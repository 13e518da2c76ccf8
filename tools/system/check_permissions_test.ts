import assert from "node:assert/strict";
import { systemKit } from "./_test_kit.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("check_permissions reports the back end's checks, what is missing and each remedy", async () => {
  await using kit = systemKit();
  kit.fake.permissionChecks = [
    { name: "display", ok: true, detail: "X server answers on :9", remedy: null },
    {
      name: "atspi",
      ok: false,
      detail: "The session bus does not answer",
      remedy: "install at-spi2-core and start at-spi-bus-launcher, or run cua-driver with --desktop embedded",
      data: { session_bus_address: "unix:path=/nowhere" },
    },
    { name: "xtest", ok: true, detail: "XTEST 2.2", remedy: null },
  ];
  const result = await kit.call("check_permissions");
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const out = result.structuredContent as Any;
  assert.equal(out.ok, false);
  assert.deepEqual(out.missing, ["atspi"]);
  assert.equal(out.x11, true);
  assert.equal(out.atspi, false);
  assert.equal(out.dbus_session_bus_address, "unix:path=/nowhere");
  assert.equal(out.checks.length, 3);
  const text = result.content[0].type === "text" ? result.content[0].text : "";
  assert.match(text, /1 of 3 checks failed: atspi/);
  assert.match(text, /remedy: install at-spi2-core/);
});

Deno.test("check_permissions refuses prompt: true without probing anything", async () => {
  await using kit = systemKit();
  const result = await kit.call("check_permissions", { prompt: true });
  assert.equal(result.isError, true);
  const envelope = result.structuredContent as Any;
  assert.equal(envelope.code, "os_permission_prompt_requires_trusted_host");
  assert.equal(envelope.status, "refused");
  assert.ok(!kit.fake.calls.includes("permissions"));
  // prompt: false is simply a check
  assert.equal((await kit.call("check_permissions", { prompt: false })).isError, undefined);
});
