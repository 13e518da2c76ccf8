import assert from "node:assert/strict";
import { type Kit, pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

function latestShot(kit: Kit): string {
  const session = kit.state.sessions.resolve("test", "cli", null);
  return kit.state.captures.latestForWindow(session.id, WINDOW)!.id;
}

function sentNothing(kit: Kit): boolean {
  return !kit.pointerCalls().some((c) => /down|move/.test(c));
}

Deno.test("click tool maps x, y through the pinned screenshot_id", async () => {
  const kit = pointerKit();
  const result = await kit.call("click", { target, x: 10, y: 10, screenshot_id: latestShot(kit) });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.ok(kit.pointerCalls().includes("pointer.background.move 120,120"));
});

Deno.test("click tool refuses a screenshot_id superseded by a newer capture of the window", async () => {
  const kit = pointerKit();
  const old = latestShot(kit);
  kit.screenshot();
  const result = await kit.call("click", { target, x: 10, y: 10, screenshot_id: old });
  assert.equal(result.structuredContent?.code, "stale_screenshot");
  assert.equal(result.structuredContent?.reason, "superseded");
  assert.ok(sentNothing(kit));
});

Deno.test("click tool refuses a screenshot_id once the window moved or resized", async () => {
  const kit = pointerKit();
  await kit.fake.windows.setFrame(WINDOW, { x: 130, y: 100, width: 400, height: 300 });
  const result = await kit.call("click", { target, x: 10, y: 10, screenshot_id: latestShot(kit) });
  assert.equal(result.structuredContent?.code, "stale_screenshot");
  assert.equal(result.structuredContent?.reason, "geometry_changed");
  assert.ok(sentNothing(kit));
});

Deno.test("click tool refuses unknown and other sessions' screenshot ids", async () => {
  const kit = pointerKit();
  const unknown = await kit.call("click", { target, x: 10, y: 10, screenshot_id: "c000000000000" });
  assert.equal(unknown.structuredContent?.code, "stale_screenshot");
  assert.equal(unknown.structuredContent?.reason, "unknown");
  const foreign = await kit.call(
    "click",
    { target, x: 10, y: 10, screenshot_id: latestShot(kit) },
    "other-lease",
  );
  assert.equal(foreign.structuredContent?.code, "stale_screenshot");
  assert.ok(sentNothing(kit));
});

Deno.test("click tool rejects screenshot_id with from_zoom, or a capture of another window", async () => {
  const kit = pointerKit();
  const both = await kit.call("click", {
    target,
    x: 10,
    y: 10,
    screenshot_id: latestShot(kit),
    from_zoom: true,
  });
  assert.equal(both.structuredContent?.code, "invalid_arguments");
  assert.equal(both.structuredContent?.field, "screenshot_id");
  const desktop = await kit.call("click", {
    target: { kind: "desktop" },
    x: 10,
    y: 10,
    screenshot_id: latestShot(kit),
  });
  assert.equal(desktop.structuredContent?.code, "invalid_arguments");
  assert.ok(sentNothing(kit));
});

Deno.test("click tool maps desktop pixels through a pinned get_desktop_state capture, latest only", async () => {
  const kit = pointerKit();
  const first = await kit.call("get_desktop_state", {});
  const id = first.structuredContent!.screenshot_id as string;
  const result = await kit.call("click", { target: { kind: "desktop" }, x: 300, y: 200, screenshot_id: id });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.ok(kit.pointerCalls().includes("pointer.global.move 300,200"), kit.pointerCalls().join(" "));
  await kit.call("get_desktop_state", {});
  const stale = await kit.call("click", { target: { kind: "desktop" }, x: 300, y: 200, screenshot_id: id });
  assert.equal(stale.structuredContent?.code, "stale_screenshot");
  assert.equal(stale.structuredContent?.reason, "superseded");
});
