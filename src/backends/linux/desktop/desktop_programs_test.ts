import assert from "node:assert/strict";
import { DESKTOP_PROGRAMS, findProgram } from "./desktop_programs.ts";

Deno.test("findProgram returns null for a program that is not installed", () => {
  assert.equal(findProgram({ name: "cua-no-such-program", paths: [], debianPackage: "none" }), null);
});

Deno.test({
  name: "findProgram finds sh on PATH and setsid at a known path",
  ignore: Deno.build.os !== "linux",
  fn() {
    assert.match(findProgram({ name: "sh", paths: [], debianPackage: "dash" }) ?? "", /\/sh$/);
    assert.match(findProgram(DESKTOP_PROGRAMS.setsid) ?? "", /setsid$/);
  },
});
