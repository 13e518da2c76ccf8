import assert from "node:assert/strict";
import { type FakeElement, fakeElement } from "../../src/backends/fake/mod.ts";
import { type Kit, pointerKit } from "./_pointer_test_kit.ts";

const stale = { x: 300, y: 200, width: 40, height: 20 };
const fresh = { x: 300, y: 225, width: 40, height: 20 };

/** An element without actions whose frame is `stale` until the app saw a press (LibreOffice's gtk3 frames). */
function movingElement(kit: Kit, focusOnPress = false) {
  const ref = fakeElement({ actions: [] });
  const pressed = () => kit.pointerCalls().some((c) => c.startsWith("pointer.background.down"));
  Object.defineProperty(ref, "frame", { get: () => pressed() ? fresh : stale });
  Object.defineProperty(ref, "focused", { get: () => focusOnPress && pressed() });
  return cellToken(kit, ref);
}

/** The token of a table cell "B2" observed at `stale`. */
function cellToken(kit: Kit, ref: FakeElement): string {
  const [token] = kit.snapshot([{
    role: "cell",
    platformRole: "table cell",
    label: "B2",
    ref,
    frame: stale,
  }]);
  return token;
}

function presses(kit: Kit): string[] {
  return kit.pointerCalls().filter((c) => !c.endsWith("releaseAll") && !c.endsWith("sync"));
}

Deno.test("click tool presses again at an element the app moved away from the pressed point", async () => {
  const kit = pointerKit();
  const result = await kit.call("click", { element_token: movingElement(kit) });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(presses(kit), [
    "pointer.background.move 320,210",
    "pointer.background.down left",
    "pointer.background.up left",
    "pointer.background.move 320,235",
    "pointer.background.down left",
    "pointer.background.up left",
  ]);
  const text = result.content.flatMap((c) => c.type === "text" ? [c.text] : []).join(" ");
  assert.match(text, /landed beside table cell "B2".*clicked again there/);
});

Deno.test("click tool does not press again when the element it hit moved and changed its own state", async () => {
  const kit = pointerKit();
  const result = await kit.call("click", { element_token: movingElement(kit, true) });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(presses(kit), [
    "pointer.background.move 320,210",
    "pointer.background.down left",
    "pointer.background.up left",
  ]);
});

Deno.test("click tool presses once when the element's frame holds still", async () => {
  const kit = pointerKit();
  const token = cellToken(kit, fakeElement({ actions: [], frame: stale }));
  const result = await kit.call("click", { element_token: token });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(presses(kit), [
    "pointer.background.move 320,210",
    "pointer.background.down left",
    "pointer.background.up left",
  ]);
});
