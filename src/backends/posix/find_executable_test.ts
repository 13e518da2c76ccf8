import assert from "node:assert/strict";
import { join } from "node:path";
import { findExecutableSync } from "./find_executable.ts";

Deno.test("findExecutableSync finds an executable on the given PATH and skips non-executables", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const plain = join(dir, "plain");
    const tool = join(dir, "tool");
    Deno.writeTextFileSync(plain, "");
    Deno.writeTextFileSync(tool, "#!/bin/sh\n");
    Deno.chmodSync(tool, 0o755);
    assert.equal(findExecutableSync("tool", `/nonexistent:${dir}`), tool);
    assert.equal(findExecutableSync("plain", dir), null);
    assert.equal(findExecutableSync(tool), tool);
    assert.equal(findExecutableSync(plain), null);
    assert.equal(findExecutableSync("tool", "/nonexistent"), null);
    assert.equal(findExecutableSync(""), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
