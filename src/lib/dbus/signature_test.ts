import assert from "node:assert/strict";
import { alignmentOf, parseSignature, signatureOf } from "./signature.ts";

Deno.test("parseSignature splits a body signature into complete types", () => {
  const types = parseSignature("a((so)(so)(so)iiassusau)ya{sv}v");
  assert.deepEqual(types.map(signatureOf), ["a((so)(so)(so)iiassusau)", "y", "a{sv}", "v"]);
  assert.deepEqual(parseSignature(""), []);
});

Deno.test("parseSignature builds the nested type tree", () => {
  assert.deepEqual(parseSignature("a{sv}")[0], {
    kind: "array",
    element: { kind: "dict_entry", key: { kind: "basic", code: "s" }, value: { kind: "variant" } },
  });
});

Deno.test("parseSignature rejects malformed signatures", () => {
  for (const bad of ["a", "(", "()", "(i", "{sv}", "a{vs}", "a{sss}", "z", "a{s}", "i)"]) {
    assert.throws(() => parseSignature(bad), TypeError, `signature ${JSON.stringify(bad)}`);
  }
  assert.throws(() => parseSignature("a".repeat(70) + "i"), TypeError);
});

Deno.test("alignmentOf follows the spec's alignment table", () => {
  const align = (s: string) => alignmentOf(parseSignature(s)[0]);
  assert.deepEqual(
    ["y", "g", "v", "n", "q", "b", "i", "u", "s", "o", "h", "as", "x", "t", "d", "(y)"].map(align),
    [1, 1, 1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8],
  );
});
