/**
 * The validation catalog on the test desktop: every cell must deliver as intended
 * (proven by state the app owns) or be refused exactly, background cells must leave
 * focus, stacking and the real pointer alone, and a sentinel window must receive
 * nothing. Prints the table (cell, route, effect, verdict) and the total.
 *
 *     node_modules/.bin/deno run -A scripts/test.ts tests/e2e/catalog_test.ts
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startTestDriver } from "../_helpers/in_process_driver.ts";
import { catalogCells, MIN_CELLS } from "../catalog/cells.ts";
import { textTable, totalLine, verdictText } from "../catalog/report.ts";
import { runCatalog } from "../catalog/runner.ts";
import { startWorld } from "../catalog/world.ts";

Deno.test({
  name: "validation catalog passes every cell with app-owned evidence or an exact refusal",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    // CUA_CATALOG_ONLY=<regex> runs the matching cells only (while working on a few).
    const only = Deno.env.get("CUA_CATALOG_ONLY");
    const cells = catalogCells().filter((cell) => !only || new RegExp(only).test(cell.id));
    await using driver = await startTestDriver();
    await using world = await startWorld(desktopEnv(), driver);
    const results = await runCatalog(world, cells);
    console.log(`\n${textTable(results)}\n`);

    const failures = results.filter((r) => !r.passed);
    const noOps = failures.filter((r) => r.reasons.some((reason) => reason.startsWith("silent no-op")));
    assert.ok(
      only || cells.length >= MIN_CELLS,
      `the catalog has ${cells.length} cells; it needs at least ${MIN_CELLS}`,
    );
    assert.equal(
      failures.length,
      0,
      `${totalLine(results)}; ${failures.length} failed (${noOps.length} silent no-ops):\n` +
        failures.map((r) => `  ${r.id}: ${verdictText(r)}`).join("\n"),
    );
  },
});
