/**
 * The Windows validation catalog under Wine: every cell must deliver (proven by state
 * the app owns, read through Win32) or be refused exactly; background cells leave the
 * foreground window, the cursor and the sentinel notepad alone. Prints the table.
 *
 *     sh scripts/wine.sh test tests/windows/catalog_test.ts
 *
 * @module
 */
import assert from "node:assert/strict";
import { startTestDriver } from "../_helpers/in_process_driver.ts";
import { textTable, totalLine, verdictText } from "../catalog/report.ts";
import { MIN_CELLS, windowsCatalogCells } from "../catalog_windows/cells.ts";
import { runWindowsCatalog } from "../catalog_windows/runner.ts";
import { WinWorld } from "../catalog_windows/world.ts";
import { onWindows } from "./_win_apps.ts";

Deno.test({
  name: "Windows catalog passes every cell with Win32-read evidence or an exact refusal",
  ignore: !onWindows,
  async fn() {
    const cells = windowsCatalogCells();
    await using driver = await startTestDriver();
    await using world = await WinWorld.start(driver);
    const here = cells.filter((cell) => (cell.needs ?? []).every((app) => world.has(app)));
    for (const cell of cells) {
      if (!here.includes(cell)) console.log(`skip ${cell.id}: needs ${cell.needs!.join(", ")}, absent here`);
    }
    const results = await runWindowsCatalog(
      world,
      here,
      (r) => console.log(`${r.passed ? "pass" : "FAIL"} ${r.id} (${r.ms} ms) ${r.route} ${r.effect}`),
    );
    console.log(`\n${textTable(results)}\n`);
    const out = Deno.env.get("CUA_WINDOWS_CATALOG_JSON");
    if (out) await Deno.writeTextFile(out, JSON.stringify(results, null, 1));
    const failures = results.filter((r) => !r.passed);
    assert.ok(
      cells.length >= MIN_CELLS,
      `the catalog has ${cells.length} cells; it needs at least ${MIN_CELLS}`,
    );
    assert.equal(
      failures.length,
      0,
      `${totalLine(results)}:\n` + failures.map((r) => `  ${r.id}: ${verdictText(r)}`).join("\n"),
    );
  },
});
