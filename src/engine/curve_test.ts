import assert from "node:assert/strict";
import { DriverError } from "../ports/errors.ts";
import { compileCurve, sampleCurve } from "./curve.ts";

Deno.test("compileCurve evaluates precedence, powers, unary minus, constants and functions", () => {
  const f = (source: string, x = 2) => compileCurve(source, "fn")(x);
  assert.equal(f("1 + 2 * 3"), 7);
  assert.equal(f("(1 + 2) * 3"), 9);
  assert.equal(f("2 ^ 3 ^ 2"), 512, "right-associative");
  assert.equal(f("-x ** 2"), -4);
  assert.equal(f("x/4 - 1e1"), -9.5);
  assert.ok(Math.abs(f("sin(pi/2) + ln(e) + max(x, 5)") - 7) < 1e-12);
});

Deno.test("compileCurve refuses unknown names and broken syntax with the field", () => {
  for (const source of ["y", "sin(", "2 +", "(1", "1 2", "alert(1)", ""]) {
    assert.throws(
      () => compileCurve(source, "drags.0.fn"),
      (error) =>
        error instanceof DriverError && error.code === "invalid_arguments" &&
        error.data.field === "drags.0.fn",
      source,
    );
  }
});

Deno.test("sampleCurve samples evenly and refuses non-finite values", () => {
  assert.deepEqual(sampleCurve((x) => x * 2, 0, 10, 3, "f"), [{ x: 0, y: 0 }, { x: 5, y: 10 }, {
    x: 10,
    y: 20,
  }]);
  assert.throws(() => sampleCurve((x) => 1 / x, 0, 1, 2, "f"), DriverError);
});
