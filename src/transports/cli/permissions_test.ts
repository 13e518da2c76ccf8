import assert from "node:assert/strict";
import { ConfigStore } from "../../kernel/config.ts";
import { ToolRegistry } from "../../kernel/registry.ts";
import { RuntimeState } from "../../kernel/runtime_state.ts";
import { FakeBackend } from "../../backends/fake/mod.ts";
import check_permissions from "../../../tools/system/check_permissions.ts";
import { permissionsCommand } from "./permissions.ts";

Deno.test("permissionsCommand grant on an OS without prompts says so and reports the checks", async () => {
  const fake = new FakeBackend();
  fake.permissionChecks = [
    { name: "display", ok: true, detail: "X server answers on :9", remedy: null },
    {
      name: "atspi",
      ok: false,
      detail: "The session bus does not answer",
      remedy: "start at-spi-bus-launcher",
    },
  ];
  const registry = new ToolRegistry(
    [check_permissions],
    fake,
    new RuntimeState(new ConfigStore("/nonexistent/config.json")),
  );
  const out: string[] = [];
  const code = await permissionsCommand(
    { registry, requestPermissions: () => Promise.resolve(null) },
    true,
    (text) => out.push(text),
  );
  assert.equal(code, 1);
  assert.match(out[0], /no permission prompts to raise/);
  assert.match(out[1], /❌ atspi: The session bus does not answer\n\s+remedy: start at-spi-bus-launcher/);
  fake.permissionChecks = fake.permissionChecks.filter((check) => check.ok);
  const status = await permissionsCommand(
    { registry, requestPermissions: () => Promise.reject(new Error("status must not prompt")) },
    false,
    () => {},
  );
  assert.equal(status, 0, "every check passes");
});
