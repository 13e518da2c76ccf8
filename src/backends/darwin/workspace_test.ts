/** NSWorkspace through the fake runtime: the run loop that keeps its view of the apps current. */
import assert from "node:assert/strict";
import { createFakeFrameworks } from "./_fake/mod.ts";
import { DarwinContext } from "./context.ts";
import { frontmostPid, pumpRunLoop, runningApps } from "./workspace.ts";

function fakeContext() {
  const fake = createFakeFrameworks();
  fake.world.bundles.set("/Applications/Notes.app", {
    bundleId: "com.apple.Notes",
    name: "Notes",
    executable: "Notes",
  });
  return { fake, ctx: new DarwinContext(fake.frameworks) };
}

Deno.test("pumpRunLoop drains every ready source: a launch's notifications all reach NSWorkspace", () => {
  const { fake, ctx } = fakeContext();
  assert.ok(!runningApps(ctx).some((app) => app.name === "Notes"));
  const notes = fake.world.launch("/Applications/Notes.app", true)!;
  assert.equal(fake.world.runLoopSources, 3, "will launch, did launch, did activate");
  assert.ok(runningApps(ctx).some((app) => app.pid === notes.pid), "NSWorkspace lists the new app");
  assert.equal(frontmostPid(ctx), notes.pid);
  assert.equal(fake.world.runLoopSources, 0);
  ctx.close();
  fake.assertClean();
});

Deno.test("pumpRunLoop refuses off the process's main thread", () => {
  const { fake, ctx } = fakeContext();
  fake.world.mainThread = false;
  assert.throws(() => pumpRunLoop(ctx), (error: Error & { code?: string }) => {
    assert.equal(error.code, "unsupported_platform");
    assert.match(error.message, /main thread/);
    return true;
  });
  ctx.close();
  fake.assertClean();
});
