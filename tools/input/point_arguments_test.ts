import assert from "node:assert/strict";
import { fakeElement } from "../../src/backends/fake/mod.ts";
import { PID, pointerKit, WINDOW } from "./_pointer_test_kit.ts";

const target = { kind: "window", pid: 4242, window_id: WINDOW };

function refusal(result: { isError?: true; structuredContent?: Record<string, unknown> }) {
  assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as { code: string; field?: string };
}

Deno.test("pointing tools refuse one coordinate without the other, naming the missing one, and send nothing", async () => {
  for (
    const [tool, extra] of [["click", {}], ["scroll", { direction: "down" }], ["press_key", {
      key: "a",
    }]] as const
  ) {
    const kit = pointerKit();
    for (const [given, missing] of [[{ x: 10 }, "y"], [{ y: 10 }, "x"]] as const) {
      const error = refusal(await kit.call(tool, { target, ...extra, ...given }));
      assert.equal(error.code, "invalid_arguments", tool);
      assert.equal(error.field, missing, tool);
    }
    assert.deepEqual(kit.pointerCalls(), [], `${tool} sent no pointer input`);
    assert.equal(kit.fake.calls.some((c) => c.startsWith("keyboard.")), false, `${tool} sent no keys`);
  }
});

Deno.test("pointing tools refuse an element token together with x, y", async () => {
  for (
    const [tool, extra] of [["click", {}], ["scroll", { direction: "down" }], ["type_text", {
      text: "a",
    }]] as const
  ) {
    const kit = pointerKit();
    const ref = fakeElement({ frame: { x: 150, y: 150, width: 40, height: 20 } });
    const [token] = kit.snapshot([{
      role: "button",
      platformRole: "push button",
      label: "b",
      ref,
      frame: ref.frame,
    }]);
    const error = refusal(await kit.call(tool, { element_token: token, x: 10, y: 10, ...extra }));
    assert.equal(error.code, "invalid_arguments", tool);
    assert.equal(error.field, "x, y", tool);
    assert.deepEqual(kit.pointerCalls(), [], `${tool} sent no pointer input`);
  }
});

Deno.test("click refuses a stale token naming only the current snapshots of apps still running", async () => {
  const kit = pointerKit();
  const ref = fakeElement({ frame: { x: 300, y: 200, width: 40, height: 20 } });
  const [old] = kit.snapshot([{
    role: "button",
    platformRole: "push button",
    label: "b",
    ref,
    frame: ref.frame,
  }]);
  const [fresh] = kit.snapshot([{
    role: "button",
    platformRole: "push button",
    label: "b",
    ref,
    frame: ref.frame,
  }]);
  const stale = await kit.call("click", { element_token: old });
  assert.equal(stale.structuredContent?.code, "stale_element_token");
  assert.deepEqual(stale.structuredContent?.current_snapshot_ids, [fresh.split(":")[0]]);
  kit.fake.alive.delete(PID);
  const dead = await kit.call("click", { element_token: old });
  assert.deepEqual(
    dead.structuredContent?.current_snapshot_ids,
    [],
    "a killed app's snapshot is not offered",
  );
});
