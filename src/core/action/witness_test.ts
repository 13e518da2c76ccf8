import assert from "node:assert/strict";
import type { AppStateSample } from "../../platform/types.ts";
import { describeChanges } from "./witness.ts";

function sample(
  objects: Record<string, string>,
  focus: string | null = null,
  details: Record<string, string> = {},
): AppStateSample {
  return {
    objects: new Map(Object.entries(objects)),
    focus,
    details: new Map(Object.entries(details)),
    describe: (key) => `push button ${JSON.stringify(key.split("#")[0])}`,
  };
}

Deno.test("describeChanges finds nothing between equal samples", () => {
  const a = sample({ a: "1", b: "2" }, "a", { "a#text": "x" });
  assert.deepEqual(describeChanges(a, sample({ a: "1", b: "2" }, "a", { "a#text": "x" })), []);
});

Deno.test("describeChanges names a moved focus, a moved caret, a new value and changed objects", () => {
  const before = sample({ a: "1", b: "2", c: "3" }, "a", { "a#caret": "1", "v#value": "3" });
  const caret = sample({ a: "1", b: "2", c: "3" }, "a", { "a#caret": "2", "v#value": "4" });
  assert.deepEqual(describeChanges(before, caret), [
    'caret of push button "a" moved 1 -> 2',
    'value of push button "v" 3 -> 4',
  ]);
  const focus = sample({ a: "1", b: "2*", d: "4" }, "b");
  assert.deepEqual(describeChanges(before, focus), [
    'focus moved to push button "b"',
    "1 accessible object appeared",
    "1 accessible object went away",
    'push button "b" changed',
  ]);
});
