/**
 * Runs the Windows catalog under Wine (scripts/wine.sh) and writes its table into
 * README.md between `<!-- windows-catalog:start -->` and `<!-- windows-catalog:end -->`.
 *
 *     deno run -A scripts/windows_catalog_table.ts            # run, print, rewrite README.md
 *     deno run -A scripts/windows_catalog_table.ts --dry-run  # run and print only
 *     deno run -A scripts/windows_catalog_table.ts --no-run   # table from the last run's bench/windows_catalog.json
 *     deno run -A scripts/windows_catalog_table.ts --no-run --json FILE --out TABLE.md --where windows-latest
 *                                                             # a table file from another run's results (CI)
 *
 * `bash scripts/wine.sh test` writes that file too when CUA_WINDOWS_CATALOG_JSON is
 * `Z:\repo\bench\windows_catalog.json`.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CellResult } from "../tests/catalog/runner.ts";
import { markdownTable } from "../tests/catalog/report.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const README = `${root}README.md`;
const START = "<!-- windows-catalog:start -->";
const END = "<!-- windows-catalog:end -->";
const { values } = parseArgs({
  options: {
    "no-run": { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
    json: { type: "string" },
    out: { type: "string" },
    where: { type: "string", default: "Wine 10" },
  },
});
const json = "bench/windows_catalog.json";
const jsonPath = values.json ?? `${root}${json}`;

const run = values["no-run"] ? { success: true } : await new Deno.Command("bash", {
  args: [`${root}scripts/wine.sh`, "test", "tests/windows/catalog_test.ts"],
  cwd: root,
  env: { CUA_WINDOWS_CATALOG_JSON: `Z:\\repo\\${json.replaceAll("/", "\\")}` },
  stdout: "inherit",
  stderr: "inherit",
}).output();
const results = JSON.parse(await Deno.readTextFile(jsonPath)) as CellResult[];
const commit = new TextDecoder().decode(
  (await new Deno.Command("git", { args: ["rev-parse", "--short", "HEAD"], cwd: root, stdout: "piped" })
    .output()).stdout,
).trim();
const table = markdownTable(
  results,
  `${results.length} cells under ${values.where} (deno.exe ${
    values.where === "Wine 10" ? "2.9.4" : "2.9.3"
  }), commit ${commit} ` +
    "(`deno run -A scripts/windows_catalog_table.ts`)",
);
console.log(table);
if (values.out) await Deno.writeTextFile(values.out, `${table}\n`);
else if (!values["dry-run"]) {
  const text = await Deno.readTextFile(README);
  const start = text.indexOf(START), end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} ... ${END} block`);
  await Deno.writeTextFile(
    README,
    `${text.slice(0, start + START.length)}\n\n${table}\n\n${text.slice(end)}`,
  );
}
Deno.exit(run.success ? 0 : 1);
