/**
 * The cross-app catalog: gtk4-widget-factory, kcalc, LibreOffice Writer and Calc,
 * Firefox ESR and xterm, each started once with launch_app and ended with kill_app.
 * Per app: the window is found, the driver's first get_window_state covers at least 90%
 * of the actionable objects an independent AT-SPI walk finds, with frames within 2 px;
 * every cell is judged by the app's own state; no silent failure, no false confirmation,
 * no false no-op, and no app crashes.
 *
 *     CUA_CROSSAPP=1 node_modules/.bin/deno run -A scripts/test.ts tests/e2e/crossapp_catalog_test.ts
 *     CUA_CROSSAPP_ONLY=kcalc,xterm ...   (only those apps)
 *
 * Opt-in (`CUA_CROSSAPP=1`): scripts/setup.sh installs its apps. It passed whole in one CI run, and
 * once an OCR reading of xterm taken while the shell still drew its prompt failed a cell.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startTestDriver } from "../_helpers/in_process_driver.ts";
import { crossApps, FIREFOX_PAGE, FIREFOX_PREFS, libreOfficeProfile } from "../crossapp/apps.ts";
import { appTable, cellTable, crossTotalLine, crossTotals } from "../crossapp/report.ts";
import { type AppReport, runApp } from "../crossapp/runner.ts";

/** Minimum share of the independent walk's actionable objects the first observation must cover. */
const MIN_RECALL = 0.9;

Deno.test({
  name: "cross-app catalog: every app's window, tree and cells, judged by the app's own state",
  ignore: ignoreWithoutDesktop() || Deno.env.get("CUA_CROSSAPP") !== "1",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-crossapp-" });
    try {
      await Deno.mkdir(`${dir}/firefox`);
      await Deno.writeTextFile(`${dir}/firefox/user.js`, FIREFOX_PREFS);
      await Deno.writeTextFile(`${dir}/page.html`, FIREFOX_PAGE);
      const dirs = {
        libreOffice: await libreOfficeProfile(`${dir}/libreoffice`),
        libreOfficeCalc: await libreOfficeProfile(`${dir}/libreoffice-calc`),
        firefox: `${dir}/firefox`,
        page: `file://${dir}/page.html`,
        scratch: dir,
      };
      const only = Deno.env.get("CUA_CROSSAPP_ONLY")?.split(",");
      const apps = crossApps(dirs).filter((app) => !only || only.includes(app.name));
      await using driver = await startTestDriver();
      const reports: AppReport[] = [];
      for (const app of apps) reports.push(await runApp(driver, app, (line) => console.log(line)));
      console.log(`\n${appTable(reports)}\n\n${cellTable(reports)}\n\n${crossTotalLine(reports)}\n`);
      await Deno.writeTextFile(
        Deno.env.get("CUA_CROSSAPP_REPORT") ?? `${dir}/report.json`,
        JSON.stringify(reports, null, 2),
      );

      const totals = crossTotals(reports);
      assert.deepEqual(totals.problems, [], "every app started, showed its window and ended with kill_app");
      for (const report of reports) {
        const c = report.coverage;
        if (!c) continue;
        assert.ok(
          c.recall >= MIN_RECALL,
          `${report.app}: the first get_window_state covers ${c.matched}/${c.actionable} actionable objects; ` +
            `missed ${c.missed.join("; ")}`,
        );
        assert.equal(
          c.framesWithin2,
          c.matched,
          `${report.app}: ${
            c.matched - c.framesWithin2
          } frames more than 2 px from AT-SPI's (worst ${c.worstFrameDelta})`,
        );
      }
      assert.equal(
        totals.silentFailures + totals.falseConfirmations + totals.falseNoops,
        0,
        crossTotalLine(reports),
      );
      const failed = reports.flatMap((r) => r.results).filter((r) => !r.passed);
      assert.equal(failed.length, 0, failed.map((r) => `${r.id}: ${r.reasons.join("; ")}`).join("\n"));
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
