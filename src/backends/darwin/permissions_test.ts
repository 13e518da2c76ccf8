/** check_permissions and health_report facts on macOS, against the fake frameworks. */
import assert from "node:assert/strict";
import { fakeMacBackend } from "./_fake/harness.ts";
import { createFakeFrameworks, MAC } from "./_fake/mod.ts";
import { DriverError } from "../../ports/errors.ts";
import { createDarwinBackend } from "./mod.ts";
import { requestPermissions } from "./permissions.ts";
import { DarwinContext } from "./context.ts";

Deno.test("darwin permissions pass on a Mac with both grants and a console session", async () => {
  await using mac = fakeMacBackend();
  const checks = await mac.backend.permissions();
  assert.deepEqual(checks.map((c) => [c.name, c.ok]), [
    ["accessibility", true],
    ["screen_recording", true],
    ["window_server", true],
    ["capture_api", true],
    ["clipboard", true],
  ]);
  assert.ok(checks.every((c) => c.remedy === null));
});

Deno.test("darwin permissions name the exact System Settings pane for each missing grant", async () => {
  await using mac = fakeMacBackend();
  Object.assign(mac.fake.world, {
    accessibilityTrusted: false,
    screenCaptureAllowed: false,
    consoleSession: false,
  });
  const checks = Object.fromEntries((await mac.backend.permissions()).map((c) => [c.name, c]));
  assert.equal(checks.accessibility.ok, false);
  assert.match(
    checks.accessibility.remedy!,
    /x-apple\.systempreferences:com\.apple\.preference\.security\?Privacy_Accessibility/,
  );
  assert.equal(checks.screen_recording.ok, false);
  assert.match(checks.screen_recording.remedy!, /Privacy_ScreenCapture/);
  assert.equal(checks.window_server.ok, false);
  assert.match(checks.window_server.detail, /SSH/);
  assert.deepEqual(mac.fake.world.promptsShown, [], "reading the permissions never prompts");
});

Deno.test("darwin requestPermissions raises the system prompts only for missing grants", () => {
  const fake = createFakeFrameworks();
  const ctx = new DarwinContext(fake.frameworks);
  assert.deepEqual(requestPermissions(ctx), {
    accessibility: true,
    screenRecording: true,
    prompted: [],
    notes: [],
  });
  Object.assign(fake.world, { accessibilityTrusted: false, screenCaptureAllowed: false });
  const result = requestPermissions(ctx);
  assert.deepEqual(result.prompted, ["accessibility"]);
  assert.match(result.notes.join(""), /Screen Recording was requested/);
  assert.deepEqual(fake.world.promptsShown, ["accessibility", "screen_capture"]);
  ctx.close();
  fake.assertClean();
});

Deno.test("darwin health reports macOS facts, timed probes and failures with hints", async () => {
  await using mac = fakeMacBackend();
  const checks = await mac.backend.health([
    "display",
    "window_manager",
    "accessibility",
    "capture",
    "input",
    "bogus",
  ]);
  assert.deepEqual(checks.map((c) => [c.name, c.status]), [
    ["display", "pass"],
    ["window_manager", "pass"],
    ["accessibility", "pass"],
    ["capture", "pass"],
    ["input", "pass"],
  ]);
  assert.match(checks[0].message, /macOS 14\.6\.1: 2 display\(s\), main 1512x982 points @ 2x/);
  assert.equal(checks[0].data?.model, "Mac14,9");
  assert.match(checks[3].message, /3024x1964/);
  assert.equal(checks[3].data?.api, "CGDisplayCreateImage");
  assert.equal(checks[4].data?.background, "SLEventPostToPid");
  mac.fake.world.productVersion = "15.1";
  const [capture] = await mac.backend.health(["capture"]);
  assert.equal(capture.data?.api, "/usr/sbin/screencapture", "macOS 15 captures through screencapture");
  mac.fake.world.accessibilityTrusted = false;
  const denied = await mac.backend.health(["accessibility", "input"]);
  assert.ok(denied.every((c) => c.status === "fail" && /Privacy_Accessibility/.test(c.hint ?? "")));
});

Deno.test("the darwin back end on another OS refuses with library_unavailable, naming the framework", async () => {
  if (Deno.build.os === "darwin") return;
  const backend = createDarwinBackend();
  const error = await backend.screen.displays().catch((e) => e);
  assert.ok(error instanceof DriverError);
  assert.equal(error.code, "library_unavailable");
  assert.match(error.message, /CoreGraphics/);
  assert.match(String(error.data.hint), /runs only on macOS/);
  await backend.close();
});

Deno.test("darwin requestPermissions does not claim a Screen Recording prompt macOS shows only once per app", () => {
  const fake = createFakeFrameworks();
  const ctx = new DarwinContext(fake.frameworks);
  fake.world.screenCaptureAllowed = false;
  requestPermissions(ctx);
  assert.deepEqual(fake.world.promptsShown, ["screen_capture"], "the first request prompts");
  const again = requestPermissions(ctx);
  assert.deepEqual(fake.world.promptsShown, ["screen_capture"], "macOS does not prompt the same app again");
  assert.ok(!again.prompted.includes("screen_recording"), "no prompt is reported that macOS did not show");
  assert.match(again.notes.join("\n"), /once per app/);
  assert.match(again.notes.join("\n"), /Privacy_ScreenCapture/);
  ctx.close();
  fake.assertClean();
});

Deno.test("darwin check_permissions names the MCP client app that started the driver as the grantee", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  // Claude.app (pid 880) runs `npx cua-driver mcp`: node (881) starts the driver (Deno.pid).
  world.apps.push({
    ...world.app(MAC.textEdit)!,
    pid: 880,
    name: "Claude",
    bundleId: "com.anthropic.claudefordesktop",
    bundlePath: "/Applications/Claude.app",
    executablePath: "/Applications/Claude.app/Contents/MacOS/Claude",
  });
  world.tools.set(881, "/opt/homebrew/bin/node");
  world.parents.set(881, 880);
  world.parents.set(Deno.pid, 881);
  Object.assign(world, { accessibilityTrusted: false, screenCaptureAllowed: false });
  const checks = await mac.backend.permissions();
  for (const name of ["accessibility", "screen_recording"]) {
    const remedy = checks.find((c) => c.name === name)!.remedy!;
    assert.match(remedy, /to Claude \(\/Applications\/Claude\.app\), the app that started the driver/, name);
  }
});

Deno.test("darwin health names CGEventPostToPid where SkyLight is missing", async () => {
  await using mac = fakeMacBackend({ skyLight: false });
  const [input] = await mac.backend.health(["input"]);
  assert.equal(input.data?.background, "CGEventPostToPid");
});
