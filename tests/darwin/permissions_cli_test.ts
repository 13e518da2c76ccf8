/**
 * `cua-driver permissions` on the fake Mac: `grant` raises the system prompts for the
 * missing grants (which no tool call may do) and then reports the checks with their
 * System Settings panes; `status` never prompts.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  permissionsCommand,
  type PermissionsRuntime,
  permissionsUsageError,
} from "../../src/transports/cli/permissions.ts";
import { macDriver } from "./_driver.ts";

function capture() {
  const out: string[] = [];
  return { out, print: (text: string) => out.push(text) };
}

function runtimeOf(driver: ReturnType<typeof macDriver>): PermissionsRuntime {
  return { registry: driver.registry, requestPermissions: () => driver.mac.backend.requestPermissions!() };
}

Deno.test("permissions grant raises the macOS prompts for the missing grants, then names each pane", async () => {
  await using driver = macDriver();
  Object.assign(driver.world, { accessibilityTrusted: false, screenCaptureAllowed: false });
  const printed = capture();
  const code = await permissionsCommand(runtimeOf(driver), true, printed.print);
  assert.deepEqual(driver.world.promptsShown, ["accessibility", "screen_capture"]);
  assert.equal(code, 1, "the grants are still missing until the user allows them");
  const text = printed.out.join("\n");
  assert.match(text, /Raised the system prompt for: accessibility\./);
  assert.match(text, /Screen Recording was requested for .*once per app/);
  assert.match(text, /❌ accessibility:.*\n.*Privacy_Accessibility/);
  assert.match(text, /❌ screen_recording:.*\n.*Privacy_ScreenCapture/);
});

Deno.test("permissions grant prompts for nothing already granted, and status never prompts", async () => {
  await using driver = macDriver();
  const granted = capture();
  assert.equal(await permissionsCommand(runtimeOf(driver), true, granted.print), 0);
  assert.match(granted.out[0], /already given/);
  assert.deepEqual(driver.world.promptsShown, []);
  driver.world.accessibilityTrusted = false;
  const status = capture();
  assert.equal(await permissionsCommand(runtimeOf(driver), false, status.print), 1);
  assert.deepEqual(driver.world.promptsShown, [], "status reads, never prompts");
  assert.match(status.out.join("\n"), /1 of 5 checks failed: accessibility/);
  assert.match(permissionsUsageError("revoke")!, /permissions takes status or grant, not "revoke"/);
  assert.equal(permissionsUsageError("grant"), null);
});
