/** Import boundaries of STYLE.md S9 hold across the repository. */
import assert from "node:assert/strict";
import { findViolations, rule } from "../../scripts/check_boundaries.ts";

Deno.test("import boundaries: the rules catch what they forbid", () => {
  assert.match(rule("tools/input/click.ts", "ffi/linux/x11.ts") ?? "", /tools/);
  assert.match(rule("tools/input/click.ts", "src/platform/linux/input/mod.ts") ?? "", /tools/);
  assert.match(rule("ffi/linux/x11.ts", "src/core/errors.ts") ?? "", /ffi/);
  assert.match(rule("src/core/registry.ts", "src/platform/linux/mod.ts") ?? "", /platform-neutral/);
  assert.match(rule("src/runtime.ts", "src/platform/linux/mod.ts") ?? "", /only src\/platform\/mod.ts/);
  assert.match(rule("src/platform/linux/mod.ts", "src/platform/darwin/mod.ts") ?? "", /OS folder/);
  assert.match(
    rule("src/platform/linux/x11/screen.ts", "src/platform/darwin/screen.ts") ?? "",
    /another OS folder/,
  );
  assert.equal(rule("src/platform/mod.ts", "src/platform/linux/mod.ts"), null);
  assert.equal(rule("tools/input/click.ts", "src/platform/types.ts"), null);
});

Deno.test("import boundaries hold across the repository", async () => {
  assert.deepEqual(await findViolations(), []);
});
