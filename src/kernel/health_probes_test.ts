import assert from "node:assert/strict";
import { DriverError } from "../ports/errors.ts";
import { runHealthProbes } from "./health_probes.ts";

Deno.test("runHealthProbes runs the named probes in order, skips unknown names and turns throws into fail checks", async () => {
  const probes = {
    display: (n: number) => Promise.resolve({ name: "display", status: "pass" as const, message: `n=${n}` }),
    input: () => Promise.reject(new DriverError("display_unavailable", "No display", { hint: "start one" })),
  };
  const checks = await runHealthProbes(probes, 7, ["input", "nope", "display", "toString"]);
  assert.deepEqual(checks, [
    { name: "input", status: "fail", message: "No display", hint: "start one" },
    { name: "display", status: "pass", message: "n=7" },
  ]);
});
