import assert from "node:assert/strict";
import type { WinCell } from "./cell.ts";
import { effectProblems } from "./effects.ts";

const oracle = { says: "Ctrl+A selects all (EM_GETSEL 0..6)", read: () => 0, judge: () => ({}) } as never;
const delivered: Pick<WinCell, "expect" | "oracle"> = { expect: { kind: "delivered" }, oracle };
const pinned: Pick<WinCell, "expect" | "oracle"> = {
  expect: { kind: "delivered", effect: "confirmed" },
  oracle,
};
const reported: Pick<WinCell, "expect" | "oracle"> = {
  expect: { kind: "reported", effects: ["confirmed", "unverifiable"] },
  oracle,
};

Deno.test("effectProblems fails a suspected_noop for a change the app's state shows (hotkey Ctrl+A)", () => {
  const problems = effectProblems(delivered, "suspected_noop", true, "[0,0] -> [0,6]");
  assert.equal(problems.length, 1);
  assert.match(problems[0], /^false no-op: .*EM_GETSEL.*happened/);
  assert.deepEqual(effectProblems(delivered, "confirmed", true, "x"), []);
});

Deno.test("effectProblems fails a confirmed for a change that did not happen, in every kind of cell", () => {
  assert.match(effectProblems(reported, "confirmed", false, "false -> false")[0], /^false confirmation/);
  assert.deepEqual(effectProblems(reported, "unverifiable", false, "false -> false"), []);
  assert.deepEqual(effectProblems(reported, "confirmed", true, "false -> true"), []);
  const missed = effectProblems(delivered, "confirmed", false, "same");
  assert.deepEqual(missed.map((p) => p.split(":")[0]), ["silent no-op", "false confirmation"]);
});

Deno.test("effectProblems holds a pinned or listed effect to the letter", () => {
  assert.deepEqual(effectProblems(pinned, "unverifiable", true, "x"), [
    "effect unverifiable, the app's state proves confirmed",
  ]);
  assert.match(
    effectProblems(reported, "suspected_noop", false, "x")[0],
    /expected one of confirmed, unverifiable/,
  );
  assert.deepEqual(effectProblems({ expect: { kind: "refused", code: "x" }, oracle }, "ok", false, "x"), []);
});
