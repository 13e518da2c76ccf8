/** The macOS system facility: process facts from libproc/sysctl, paths, packages. */
import assert from "node:assert/strict";
import { fakeMacBackend } from "./_fake/harness.ts";
import { MAC } from "./_fake/mod.ts";
import { brewInstallPlan } from "./packages.ts";
import { darwinCacheDir } from "./sockets.ts";
import { findExecutableDarwin } from "./system.ts";

Deno.test("darwin system reads a process's executable and argv from libproc and KERN_PROCARGS2", async () => {
  await using mac = fakeMacBackend();
  const system = mac.backend.system;
  assert.equal(
    await system.processExecutable(MAC.textEdit),
    "/System/Applications/TextEdit.app/Contents/MacOS/TextEdit",
  );
  assert.deepEqual(await system.processCommandLine(MAC.textEdit), [
    "/System/Applications/TextEdit.app/Contents/MacOS/TextEdit",
    "-NSDocumentRevisionsDebugMode",
    "YES",
  ]);
  assert.equal(await system.processCommandLine(4_000_000), null);
  assert.equal(await system.processExecutable(4_000_000), null);
  assert.equal(system.isElevated(), false);
  const before = system.monotonicMs();
  assert.ok(before >= 86_400_000, "milliseconds since boot from CLOCK_MONOTONIC");
  assert.ok(system.monotonicMs() >= before);
});

Deno.test("darwin system keeps the daemon socket in ~/Library/Caches/cua-driver", async () => {
  await using mac = fakeMacBackend();
  assert.equal(mac.backend.system.cacheDir(), darwinCacheDir());
  assert.match(darwinCacheDir(), /\/Library\/Caches\/cua-driver$/);
  assert.equal(mac.backend.system.sockets.defaultAddress(), `${darwinCacheDir()}/cua-driver.sock`);
  assert.equal(mac.backend.system.classifyDirectory("/System/Library"), "system");
  assert.equal(mac.backend.system.classifyDirectory("/Users"), "shared_root");
});

Deno.test("darwin packages plan Homebrew installs, never as root", () => {
  const brew = "/opt/homebrew/bin/brew";
  assert.deepEqual(brewInstallPlan("ffmpeg", { brew: () => brew, uid: () => 501 }), {
    manager: "brew",
    command: [brew, "install", "ffmpeg"],
    privilege: "root",
    runs: [brew, "install", "ffmpeg"],
  });
  assert.equal(
    brewInstallPlan("text_recognition", { brew: () => brew, uid: () => 0 })?.privilege,
    "unavailable",
  );
  assert.equal(brewInstallPlan("ffmpeg", { brew: () => null, uid: () => 501 }), null);
});

Deno.test("darwin screen records the main display through AVFoundation at native pixels", async () => {
  await using mac = fakeMacBackend();
  const source = await mac.backend.screen.recordingSource({ frameRate: 10, drawCursor: false });
  assert.deepEqual(source, {
    ffmpegInput: [
      "-f",
      "avfoundation",
      "-framerate",
      "10",
      "-capture_cursor",
      "0",
      "-i",
      "Capture screen 0:none",
    ],
    width: 3024,
    height: 1964,
  });
  mac.fake.world.screenCaptureAllowed = false;
  const denied = await mac.backend.screen.recordingSource({ frameRate: 10, drawCursor: true }).catch((e) =>
    e
  );
  assert.equal(denied.code, "permission_denied");
});

Deno.test("darwin system finds a browser's app bundle by its command name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cua-darwin-applications-" });
  try {
    const executable = `${dir}/Google Chrome.app/Contents/MacOS/Google Chrome`;
    await Deno.mkdir(`${dir}/Google Chrome.app/Contents/MacOS`, { recursive: true });
    await Deno.writeTextFile(executable, "#!/bin/sh\n");
    await Deno.chmod(executable, 0o755);
    assert.equal(await findExecutableDarwin("google-chrome", "/nonexistent", [dir]), executable);
    assert.equal(await findExecutableDarwin("chromium", "/nonexistent", [dir]), null);
    assert.match((await findExecutableDarwin("sh", "/bin:/usr/bin", [dir])) ?? "", /\/sh$/, "PATH first");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
