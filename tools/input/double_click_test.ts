import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

Deno.test("double_click tool presses left twice with the private pointer at the mapped point", async () => {
  const kit = pointerKit();
  kit.fake.appReacts(WINDOW);
  const result = await kit.call("double_click", { target, x: 50, y: 25 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const { points, ...rest } = result.structuredContent as Record<string, unknown>;
  assert.deepEqual(rest, {
    effect: "confirmed",
    route: "global_input",
    delivery: { mode: "background", delivered_count: 2 },
    evidence: [{ kind: "window_change" }],
  });
  assert.deepEqual(
    (points as { screenshot_id?: string }[]).map(({ screenshot_id: id, ...p }) => ({
      ...p,
      pinned: /^c/.test(id ?? ""),
    })),
    [{ x: 50, y: 25, coordinate_space: "screenshot", screen: { x: 200, y: 150 }, pinned: true }],
    "each point as given and as a screen point",
  );
  // Half-size screenshot: pixel (50, 25) is screen (100 + 100, 100 + 50).
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll")), [
    "pointer.background.move 200,150",
    "pointer.background.down left",
    "pointer.background.up left",
    "pointer.background.down left",
    "pointer.background.up left",
  ]);
});

Deno.test("double_click tool goes to an element's centre by pixel (AT-SPI has no double-click)", async () => {
  const kit = pointerKit();
  const ref = fakeElement({ frame: { x: 300, y: 200, width: 40, height: 20 } });
  const [token] = kit.snapshot([{
    role: "button",
    platformRole: "push button",
    label: "btn-double",
    ref,
    frame: ref.frame,
  }]);
  const result = await kit.call("double_click", { element_token: token });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(ref.activations, 0, "no accessibility action");
  assert.ok(kit.pointerCalls().includes("pointer.background.move 320,210"));
});

Deno.test("double_click tool refuses a covered point with background_unavailable and sends nothing", async () => {
  const kit = pointerKit();
  kit.fake.onTop = false;
  const result = await kit.call("double_click", { target, x: 50, y: 25 });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.deepEqual(result.structuredContent?.escalation, {
    recommended: "foreground",
    reason: "target_covered",
  });
  assert.ok(!kit.pointerCalls().some((c) => /down|move/.test(c)));
});

Deno.test("double_click tool has no button, count or modifier", async () => {
  const kit = pointerKit();
  for (const extra of [{ button: "right" }, { count: 3 }, { modifier: ["shift"] }]) {
    const result = await kit.call("double_click", { target, x: 5, y: 5, ...extra });
    assert.equal(result.structuredContent?.code, "invalid_arguments");
    assert.equal(result.structuredContent?.field, Object.keys(extra)[0]);
  }
});
