/** The macOS app facility against the fake frameworks. */
import assert from "node:assert/strict";
import { fakeMacBackend } from "./_fake/harness.ts";
import { MAC } from "./_fake/mod.ts";

async function applicationsDir(names: string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cua-darwin-apps-" });
  for (const name of names) await Deno.mkdir(`${dir}/${name}.app/Contents`, { recursive: true });
  return dir;
}

Deno.test("darwin apps list running apps, then installed bundles that are not running", async () => {
  const dir = await applicationsDir(["Calculator", "Controls", "Notes"]);
  try {
    const world = (await import("./_fake/scenario.ts")).macDesktop();
    world.bundles.set(`${dir}/Calculator.app`, {
      bundleId: "com.apple.calculator",
      name: "Calculator",
      executable: "Calculator",
    });
    world.bundles.set(`${dir}/Controls.app`, {
      bundleId: "com.example.Controls",
      name: "Controls",
      executable: "Controls",
    });
    world.apps.find((a) => a.pid === MAC.controls)!.bundlePath = `${dir}/Controls.app`;
    await using mac = fakeMacBackend({ world, applicationDirs: [dir] });
    const apps = await mac.backend.apps.listApps();
    const running = apps.filter((a) => a.running);
    // The Dock is a background (prohibited) app: listed by listProcesses, not as an app.
    assert.deepEqual(running.map((a) => a.name), ["Finder", "TextEdit", "Controls", "Google Chrome"]);
    const textEdit = running.find((a) => a.pid === MAC.textEdit)!;
    assert.deepEqual(textEdit, {
      pid: MAC.textEdit,
      bundleId: "com.apple.TextEdit",
      name: "TextEdit",
      running: true,
      active: true,
      kind: "regular",
      launchPath: "/System/Applications/TextEdit.app",
      lastUsed: new Date(1_764_597_600_000).toISOString(),
    });
    const installed = apps.filter((a) => !a.running);
    // Controls runs from that folder, so it is not listed twice; Notes has no readable bundle id.
    assert.deepEqual(installed.map((a) => [a.name, a.bundleId, a.pid]), [
      ["Calculator", "com.apple.calculator", 0],
      ["Notes", null, 0],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("darwin apps list processes from libproc, zombies left out", async () => {
  await using mac = fakeMacBackend();
  const processes = await mac.backend.apps.listProcesses();
  assert.deepEqual(processes.find((p) => p.pid === MAC.windowServer), {
    pid: MAC.windowServer,
    name: "WindowServer",
  });
  assert.deepEqual(processes.find((p) => p.pid === MAC.textEdit), { pid: MAC.textEdit, name: "TextEdit" });
  assert.ok(await mac.backend.apps.isAlive(MAC.textEdit));
  assert.equal(await mac.backend.apps.startTime(MAC.textEdit), "1764597600.250000");
  assert.equal(await mac.backend.apps.isAlive(4_000_000), false);
  assert.equal(await mac.backend.apps.startTime(4_000_000), null);
});

Deno.test("darwin apps launch by name in the background, passing arguments", async () => {
  const dir = await applicationsDir(["Calculator"]);
  try {
    const world = (await import("./_fake/scenario.ts")).macDesktop();
    world.bundles.set(`${dir}/Calculator.app`, {
      bundleId: "com.apple.calculator",
      name: "Calculator",
      executable: "Calculator",
    });
    await using mac = fakeMacBackend({ world, applicationDirs: [dir] });
    const launched = await mac.backend.apps.launch({ name: "calculator", additionalArguments: ["--fresh"] });
    assert.equal(launched.name, "Calculator");
    assert.ok(launched.pid && launched.pid > 0);
    assert.match(launched.startTime ?? "", /^\d+\.\d{6}$/);
    const [launch] = mac.fake.objc.launches;
    assert.equal(launch.path, `${dir}/Calculator.app`);
    assert.deepEqual(launch.arguments, ["--fresh"]);
    assert.equal(launch.options & 0x200n, 0x200n, "NSWorkspaceLaunchWithoutActivation");
    // The user's frontmost app kept the focus; the new app runs with a window of its own.
    assert.equal(mac.fake.world.frontmost, MAC.textEdit);
    assert.ok(mac.fake.world.windows.some((w) => w.pid === launched.pid));
    assert.ok(await mac.backend.apps.isAlive(launched.pid!));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("darwin apps launch by bundle id and open URLs with the app", async () => {
  await using mac = fakeMacBackend();
  const launched = await mac.backend.apps.launch({
    name: "com.apple.calculator",
    urls: ["https://example.com/", "/Users/ada/notes.txt"],
  });
  assert.equal(launched.name, "Calculator");
  assert.deepEqual(mac.fake.objc.launches[0].urls, ["https://example.com/", "/Users/ada/notes.txt"]);
});

Deno.test("darwin apps refuse unknown apps and empty names precisely", async () => {
  await using mac = fakeMacBackend();
  assert.equal(
    (await mac.backend.apps.launch({ name: "Nope Studio" }).catch((e) => e)).code,
    "app_not_found",
  );
  assert.equal((await mac.backend.apps.launch({ name: " " }).catch((e) => e)).code, "invalid_arguments");
  const failed = await mac.backend.apps.launch({ launchPath: "/Applications/Gone.app" }).catch((e) => e);
  assert.equal(failed.code, "launch_failed");
  assert.match(failed.message, /could not be found/);
});

Deno.test("darwin apps kill a process and see it gone", async () => {
  await using mac = fakeMacBackend();
  await mac.backend.apps.kill(MAC.controls);
  assert.equal(mac.fake.world.app(MAC.controls), undefined);
  assert.equal(await mac.backend.apps.isAlive(MAC.controls), false);
  assert.ok(!mac.fake.world.windows.some((w) => w.pid === MAC.controls));
  assert.equal((await mac.backend.apps.kill(MAC.controls).catch((e) => e)).code, "process_not_found");
  assert.equal((await mac.backend.apps.kill(1).catch((e) => e)).code, "permission_denied");
  assert.equal((await mac.backend.apps.kill(Deno.pid).catch((e) => e)).code, "permission_denied");
  assert.equal((await mac.backend.apps.kill(1.5).catch((e) => e)).code, "invalid_arguments");
});

Deno.test("darwin apps see an app the user started after the driver's first look (run loop pumped)", async () => {
  await using mac = fakeMacBackend();
  const before = await mac.backend.apps.listApps();
  assert.ok(!before.some((a) => a.name === "Calculator"));
  // Started by the user, not by the driver: NSWorkspace learns of it through a notification.
  const started = mac.fake.world.launch("/Applications/Calculator.app", true)!;
  const after = await mac.backend.apps.listApps();
  assert.ok(after.some((a) => a.pid === started.pid && a.running), "the new app is listed");
  assert.equal(
    await mac.backend.windows.active(),
    mac.fake.world.windows.find((w) => w.pid === started.pid)!.id,
  );
  assert.ok(mac.fake.callsOf("CFRunLoopRunInMode").length >= 2);
});
