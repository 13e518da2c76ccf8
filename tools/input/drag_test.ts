import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };
const line = { from_x: 10, from_y: 10, to_x: 110, to_y: 10, steps: 4, duration_ms: 0 };

Deno.test("drag tool presses, moves in steps and releases with the private pointer", async () => {
  const kit = pointerKit();
  const result = await kit.call("drag", { target, ...line });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  // Nothing of the fake app changed: compared before and after, a suspected no-op.
  const { points, ...rest } = result.structuredContent as Record<string, unknown>;
  assert.deepEqual(rest, {
    effect: "suspected_noop",
    route: "global_input",
    delivery: { mode: "background", delivered_count: 1 },
    escalation: { target: "foreground", reason: "suspected_noop" },
  });
  assert.deepEqual(
    (points as { screenshot_id?: string }[]).map(({ screenshot_id: id, ...p }) => ({
      ...p,
      pinned: /^c/.test(id ?? ""),
    })),
    [
      { x: 10, y: 10, coordinate_space: "screenshot", screen: { x: 120, y: 120 }, pinned: true },
      { x: 110, y: 10, coordinate_space: "screenshot", screen: { x: 320, y: 120 }, pinned: true },
    ],
    "each point as given and as a screen point",
  );
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll")), [
    "pointer.background.move 120,120",
    "pointer.background.down left",
    "pointer.background.move 170,120",
    "pointer.background.move 220,120",
    "pointer.background.move 270,120",
    "pointer.background.move 320,120",
    "pointer.background.up left",
  ]);
});

Deno.test("drag tool refuses when any point of the path is covered, before pressing", async () => {
  const kit = pointerKit();
  kit.fake.onTop = (p) => p.x !== 220;
  const result = await kit.call("drag", { target, ...line });
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.deepEqual(result.structuredContent?.covered_point, { x: 220, y: 120 });
  assert.ok(!kit.pointerCalls().some((c) => /down|move/.test(c)));
});

Deno.test("drag tool confirms a slider under the start point by its value", async () => {
  const kit = pointerKit();
  const slider = fakeElement({ actions: [], value: 0, frame: { x: 110, y: 110, width: 300, height: 20 } });
  kit.snapshot([{
    role: "slider",
    platformRole: "slider",
    label: "sld-value",
    ref: slider,
    frame: slider.frame,
  }]);
  kit.fake.onPointer = (_pointer, what) => {
    if (what === "up left") slider.value = 40;
  };
  const result = await kit.call("drag", { target, ...line });
  assert.equal(result.structuredContent?.effect, "confirmed");
  assert.deepEqual(result.structuredContent?.evidence, [{ kind: "value_readback" }]);
  assert.match((result.content[0] as { text: string }).text, /value 0 -> 40/);
});

Deno.test("drag tool reports suspected_noop when the slider did not move", async () => {
  const kit = pointerKit();
  const slider = fakeElement({ actions: [], value: 7, frame: { x: 110, y: 110, width: 300, height: 20 } });
  kit.snapshot([{
    role: "slider",
    platformRole: "slider",
    label: "sld-value",
    ref: slider,
    frame: slider.frame,
  }]);
  const result = await kit.call("drag", { target, ...line });
  assert.equal(result.structuredContent?.effect, "suspected_noop");
  assert.deepEqual(result.structuredContent?.escalation, { target: "foreground", reason: "suspected_noop" });
});

Deno.test("drag tool in foreground uses the user's pointer inside the window transaction", async () => {
  const kit = pointerKit();
  const result = await kit.call("drag", { target, ...line, delivery_mode: "foreground", modifier: ["ctrl"] });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const calls = kit.fake.calls;
  assert.ok(calls.indexOf(`input.withForeground ${WINDOW}`) < calls.indexOf("pointer.global.down left"));
  assert.ok(calls.indexOf("keyboard.global.down ctrl") < calls.indexOf("pointer.global.down left"));
  // The core releases the modifier it pressed, after the button comes up.
  assert.ok(calls.indexOf("keyboard.global.up ctrl") > calls.indexOf("pointer.global.up left"));
});

Deno.test("drag tool on the desktop drags the user's pointer in screen points", async () => {
  const kit = pointerKit();
  const result = await kit.call("drag", {
    target: { kind: "desktop" },
    from_x: 5,
    from_y: 5,
    to_x: 25,
    to_y: 5,
    steps: 2,
    duration_ms: 0,
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal((result.structuredContent?.delivery as { mode: string }).mode, "not_applicable");
  assert.ok(kit.pointerCalls().includes("pointer.global.move 25,5"));
});

Deno.test("drag tool names the field that is out of range", async () => {
  const kit = pointerKit();
  const cases: [Record<string, unknown>, string][] = [
    [{ steps: 0 }, "steps"],
    [{ steps: 201 }, "steps"],
    [{ duration_ms: 10_001 }, "duration_ms"],
    [{ to_x: 500 }, "to_x, to_y"],
    [{ from_y: -1 }, "from_x, from_y"],
  ];
  for (const [extra, field] of cases) {
    const result = await kit.call("drag", { target, ...line, ...extra });
    assert.equal(result.structuredContent?.code, "invalid_arguments", JSON.stringify(extra));
    assert.equal(result.structuredContent?.field, field);
  }
  assert.ok(!kit.pointerCalls().some((c) => /down|move/.test(c)));
});

Deno.test("drag tool releases the button when a move fails halfway", async () => {
  const kit = pointerKit();
  kit.fake.onPointer = (_pointer, what) => {
    if (what === "move 220,120") throw new Error("X connection lost");
  };
  const result = await kit.call("drag", { target, ...line });
  assert.equal(result.isError, true);
  const calls = kit.pointerCalls();
  assert.ok(calls.indexOf("pointer.background.up left") > calls.indexOf("pointer.background.down left"));
});
