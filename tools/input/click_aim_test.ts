import assert from "node:assert/strict";
import { fakeElement } from "../../src/platform/fake/mod.ts";
import { pointerKit } from "./_pointer_test_kit.ts";

Deno.test("click tool re-aims at an element whose frame moves once the pointer reached the window", async () => {
  const kit = pointerKit();
  // LibreOffice's gtk3 frames: extents against a stale window position until a pointer event.
  const stale = { x: 300, y: 200, width: 40, height: 20 };
  const fresh = { x: 300, y: 225, width: 40, height: 20 };
  const ref = fakeElement({ actions: [] });
  Object.defineProperty(ref, "frame", {
    get: () => kit.pointerCalls().some((c) => c.startsWith("pointer.background.move")) ? fresh : stale,
  });
  const [token] = kit.snapshot([{
    role: "cell",
    platformRole: "table cell",
    label: "B2",
    ref,
    frame: stale,
  }]);
  const result = await kit.call("click", { element_token: token });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll") && !c.endsWith("sync")), [
    "pointer.background.move 320,210",
    "pointer.background.move 320,235",
    "pointer.background.down left",
    "pointer.background.up left",
  ]);
  assert.ok(kit.fake.calls.includes("input.appSettled 7001"), "the app saw the motion before the re-read");
});

Deno.test("click tool presses where it first aimed when the element's frame holds still", async () => {
  const kit = pointerKit();
  const ref = fakeElement({ actions: [], frame: { x: 300, y: 200, width: 40, height: 20 } });
  const [token] = kit.snapshot([{
    role: "cell",
    platformRole: "table cell",
    label: "B2",
    ref,
    frame: ref.frame,
  }]);
  const result = await kit.call("click", { element_token: token });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(kit.pointerCalls().filter((c) => !c.endsWith("releaseAll") && !c.endsWith("sync")), [
    "pointer.background.move 320,210",
    "pointer.background.move 320,210",
    "pointer.background.down left",
    "pointer.background.up left",
  ]);
});
