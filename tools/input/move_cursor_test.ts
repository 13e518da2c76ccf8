import assert from "node:assert/strict";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("move_cursor tool moves the private pointer over a window and reads it back", async () => {
  const kit = pointerKit();
  const result = await kit.call("move_cursor", { target, x: 20, y: 30 });
  const { points, ...rest } = result.structuredContent as Record<string, unknown>;
  assert.deepEqual(rest, {
    effect: "confirmed",
    route: "global_input",
    delivery: { mode: "background", delivered_count: 1 },
    evidence: [{ kind: "value_readback" }],
  });
  assert.deepEqual(
    (points as { screenshot_id?: string }[]).map(({ screenshot_id: id, ...p }) => ({
      ...p,
      pinned: /^c/.test(id ?? ""),
    })),
    [{ x: 20, y: 30, coordinate_space: "screenshot", screen: { x: 140, y: 160 }, pinned: true }],
    "each point as given and as a screen point",
  );
  assert.deepEqual(kit.fake.pointerPositions.get("background"), { x: 140, y: 160 });
  assert.deepEqual(kit.fake.cursor, { x: 10, y: 20 }, "the user's pointer did not move");
});

Deno.test("move_cursor tool on the desktop moves the user's pointer and reads it back", async () => {
  const kit = pointerKit();
  const result = await kit.call("move_cursor", { target: { kind: "desktop" }, x: 640, y: 480 });
  assert.equal(result.structuredContent?.effect, "confirmed");
  assert.equal((result.structuredContent?.delivery as { mode: string }).mode, "not_applicable");
  assert.deepEqual(kit.fake.cursor, { x: 640, y: 480 });
});

Deno.test("move_cursor tool refuses a covered point of a window", async () => {
  const kit = pointerKit();
  kit.fake.onTop = false;
  const result = await kit.call("move_cursor", { target, x: 20, y: 30 });
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.equal(kit.fake.pointerPositions.size, 0);
});

Deno.test("move_cursor tool needs a target and a point inside it", async () => {
  const kit = pointerKit();
  const none = await kit.call("move_cursor", { x: 1, y: 1 });
  assert.equal(none.structuredContent?.code, "invalid_action_target");
  const outside = await kit.call("move_cursor", { scope: "desktop", x: 5000, y: 1 });
  assert.equal(outside.structuredContent?.code, "invalid_arguments");
  assert.equal(outside.structuredContent?.field, "x, y");
});
