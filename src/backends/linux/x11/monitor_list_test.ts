import assert from "node:assert/strict";
import { displayList } from "./monitor_list.ts";

const screen = { width: 1600, height: 900 };

Deno.test("displayList is the whole root window, named after the display, without monitors", () => {
  for (const monitors of [null, []]) {
    assert.deepEqual(displayList(":5", screen, monitors), [{
      id: "0",
      name: ":5",
      primary: true,
      bounds: { x: 0, y: 0, width: 1600, height: 900 },
      nativeWidth: 1600,
      nativeHeight: 900,
      scaleFactor: 1,
      refreshRateHz: 0,
    }]);
  }
});

Deno.test("displayList keeps the server's ids, puts the primary first and names unnamed monitors", () => {
  const list = displayList(":5", screen, [
    { name: "left", primary: false, bounds: { x: 0, y: 0, width: 800, height: 900 } },
    { name: null, primary: true, bounds: { x: 800, y: 0, width: 800, height: 900 } },
  ]);
  assert.deepEqual(list.map((d) => [d.id, d.name, d.primary, d.nativeWidth]), [
    ["1", "monitor-1", true, 800],
    ["0", "left", false, 800],
  ]);
});

Deno.test("displayList makes the first monitor primary when none is", () => {
  const list = displayList(":5", screen, [
    { name: "a", primary: false, bounds: { x: 0, y: 0, width: 800, height: 900 } },
    { name: "b", primary: false, bounds: { x: 800, y: 0, width: 800, height: 900 } },
  ]);
  assert.deepEqual(list.map((d) => [d.id, d.primary]), [["0", true], ["1", false]]);
});
