/**
 * Writes the cross-app catalog's tables into README.md between
 * `<!-- crossapp:start -->` and `<!-- crossapp:end -->`, from the report a run of
 * tests/e2e/crossapp_catalog_test.ts wrote:
 *
 *     CUA_CROSSAPP_REPORT=/tmp/crossapp.json deno run -A scripts/test.ts tests/e2e/crossapp_catalog_test.ts
 *     deno run -A scripts/crossapp_table.ts /tmp/crossapp.json
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { appTable, cellTable, crossTotalLine } from "../tests/crossapp/report.ts";
import type { AppReport } from "../tests/crossapp/runner.ts";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const START = "<!-- crossapp:start -->";
const END = "<!-- crossapp:end -->";

if (import.meta.main) {
  const path = Deno.args[0];
  if (!path) {
    console.error("usage: deno run -A scripts/crossapp_table.ts REPORT.json");
    Deno.exit(2);
  }
  const reports = JSON.parse(await Deno.readTextFile(path)) as AppReport[];
  const body = `\n${appTable(reports)}\n\n${cellTable(reports)}\n\n**${crossTotalLine(reports)}**\n`;
  const readme = await Deno.readTextFile(README);
  const start = readme.indexOf(START), end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} ... ${END} block`);
  await Deno.writeTextFile(README, `${readme.slice(0, start + START.length)}\n${body}\n${readme.slice(end)}`);
  console.log(crossTotalLine(reports));
}
