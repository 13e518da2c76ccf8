import assert from "node:assert/strict";
import { pointerKit, WINDOW } from "./_pointer_test_kit.ts";

function straight(session: string, fromY: number) {
  return {
    session,
    window_id: WINDOW,
    from_x: 10,
    from_y: fromY,
    to_x: 50,
    to_y: fromY,
    steps: 2,
    duration_ms: 0,
  };
}

Deno.test("parallel_mouse_drag tool presses every pointer before moving and releases and removes them all", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "a");
  kit.screenshot("test", "b");
  kit.fake.appReacts(WINDOW);
  const result = await kit.call("parallel_mouse_drag", { drags: [straight("a", 10), straight("b", 60)] });
  assert.deepEqual(result.structuredContent, {
    effect: "confirmed",
    route: "global_input",
    delivery: { mode: "background", delivered_count: 2 },
    evidence: [{ kind: "window_change" }],
  });
  const calls = kit.pointerCalls();
  assert.equal(calls.filter((c) => c === "input.extraPointer").length, 2);
  const lastDown = Math.max(
    calls.indexOf("pointer.extra1.down left"),
    calls.indexOf("pointer.extra2.down left"),
  );
  assert.ok(lastDown < calls.indexOf("pointer.extra1.move 160,120"), "both pressed before the first move");
  assert.ok(calls.includes("pointer.extra1.move 200,120") && calls.includes("pointer.extra2.move 200,220"));
  for (const name of ["extra1", "extra2"]) {
    assert.ok(calls.indexOf(`pointer.${name}.up left`) < calls.indexOf(`pointer.${name}.close`));
  }
});

Deno.test("parallel_mouse_drag tool samples an fn curve in the window's screenshot pixels", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "a");
  const result = await kit.call("parallel_mouse_drag", {
    drags: [
      {
        session: "a",
        window_id: WINDOW,
        fn: "20 + 10*sin(x*pi/40)",
        x_from: 0,
        x_to: 40,
        samples: 5,
        steps: 4,
        duration_ms: 0,
      },
      { session: "test-default-less", window_id: WINDOW, path: [[0, 0], [10, 10]] },
    ],
  });
  // The second item's session has no screenshot: nothing may be sent for either drag.
  assert.equal(result.structuredContent?.code, "screenshot_context_missing");
  assert.deepEqual(kit.pointerCalls(), []);
  kit.screenshot("test", "test-default-less");
  const ok = await kit.call("parallel_mouse_drag", {
    drags: [
      {
        session: "a",
        window_id: WINDOW,
        fn: "20 + 10*sin(x*pi/40)",
        x_from: 0,
        x_to: 40,
        samples: 5,
        steps: 4,
        duration_ms: 0,
      },
      { session: "test-default-less", window_id: WINDOW, path: [[0, 0], [10, 10]], duration_ms: 0 },
    ],
  });
  assert.equal(ok.isError, undefined, JSON.stringify(ok));
  // x = 20 -> y = 20 + 10*sin(pi/2) = 30: screen (100 + 40, 100 + 60).
  assert.ok(kit.pointerCalls().includes("pointer.extra1.move 140,160"), kit.pointerCalls().join("\n"));
});

Deno.test("parallel_mouse_drag tool refuses a covered path before creating any pointer", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "a");
  kit.fake.onTop = (p) => p.y < 200;
  const result = await kit.call("parallel_mouse_drag", { drags: [straight("a", 10), straight("a", 60)] });
  assert.equal(result.structuredContent?.code, "background_unavailable");
  assert.match(String(result.structuredContent?.message), /drags\[1\]/);
  assert.deepEqual(kit.pointerCalls(), []);
});

Deno.test("parallel_mouse_drag tool names the malformed item and field", async () => {
  const kit = pointerKit();
  kit.screenshot("test", "a");
  const cases: [Record<string, unknown>, string][] = [
    [{ path: [[0, 0], [5, 5]], from_x: 1 }, "drags.1"],
    [{ fn: "sin(", x_from: 0, x_to: 5 }, "drags.1.fn"],
    [{ fn: "x + y", x_from: 0, x_to: 5 }, "drags.1.fn"],
    [{ fn: "x", x_from: 0 }, "drags.1.x_to"],
    [{ from_x: 1, from_y: 1, to_x: 2 }, "drags.1.to_y"],
    [{ path: [[0, 0], [500, 5]] }, "drags.1.path.1"],
  ];
  for (const [item, field] of cases) {
    const result = await kit.call("parallel_mouse_drag", {
      drags: [straight("a", 10), { session: "a", window_id: WINDOW, ...item }],
    });
    assert.equal(result.structuredContent?.code, "invalid_arguments", JSON.stringify(item));
    assert.equal(result.structuredContent?.field, field, JSON.stringify(item));
  }
  const one = await kit.call("parallel_mouse_drag", { drags: [straight("a", 10)] });
  assert.equal(one.structuredContent?.field, "drags");
  assert.deepEqual(kit.pointerCalls(), []);
});
