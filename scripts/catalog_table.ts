/**
 * Runs the validation catalog (tests/catalog/) and writes its table into README.md
 * between `<!-- catalog:start -->` and `<!-- catalog:end -->`. Without DISPLAY it starts
 * a private embedded desktop (Xvfb, openbox, session bus, AT-SPI) and stops it after.
 *
 *     deno run -A scripts/catalog_table.ts           # run, print, rewrite README.md
 *     deno run -A scripts/catalog_table.ts --dry-run # run and print only
 *
 * Exits 1 when any cell failed (the table is written anyway, failures included).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { desktopEnv } from "../tests/_helpers/desktop_env.ts";
import { startTestDriver } from "../tests/_helpers/in_process_driver.ts";
import { catalogCells } from "../tests/catalog/cells.ts";
import { markdownTable, textTable, totals } from "../tests/catalog/report.ts";
import { runCatalog } from "../tests/catalog/runner.ts";
import { startWorld } from "../tests/catalog/world.ts";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const START = "<!-- catalog:start -->";
const END = "<!-- catalog:end -->";

/** Replaces what lies between the markers. */
export function replaceBetweenMarkers(text: string, body: string): string {
  const start = text.indexOf(START), end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} ... ${END} block`);
  return `${text.slice(0, start + START.length)}\n${body}\n${text.slice(end)}`;
}

async function gitDescription(): Promise<string> {
  const git = async (...args: string[]) => {
    const output = await new Deno.Command("git", { args, stdout: "piped", stderr: "null" }).output();
    return output.success ? new TextDecoder().decode(output.stdout).trim() : "";
  };
  const sha = await git("rev-parse", "--short", "HEAD");
  const dirty = (await git("status", "--porcelain", "--untracked-files=no")) !== "";
  return sha ? `commit ${sha}${dirty ? " with uncommitted changes" : ""}` : "an unknown commit";
}

async function main(): Promise<number> {
  const { values } = parseArgs({ args: Deno.args, options: { "dry-run": { type: "boolean" } } });
  let desktop: EmbeddedDesktop | null = null;
  if (!Deno.env.get("DISPLAY")) {
    desktop = await EmbeddedDesktop.start({ handleSignals: false });
    for (const [key, value] of Object.entries(desktop.env)) Deno.env.set(key, value);
    console.error(`catalog: embedded desktop ${desktop.display} ready in ${desktop.startupMs} ms`);
  }
  try {
    const started = performance.now();
    const cells = catalogCells();
    const driver = await startTestDriver();
    let results;
    try {
      await using world = await startWorld(desktopEnv(), driver);
      results = await runCatalog(world, cells, (r) => console.error(`${r.passed ? "ok  " : "FAIL"} ${r.id}`));
    } finally {
      await driver.close();
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(textTable(results));
    if (!values["dry-run"]) {
      const note = `${cells.length} cells in ${seconds} s on Xvfb + openbox, ${await gitDescription()} ` +
        "(`deno run -A scripts/catalog_table.ts`)";
      const readme = await Deno.readTextFile(README);
      await Deno.writeTextFile(README, replaceBetweenMarkers(readme, markdownTable(results, note)));
      // deno fmt aligns Markdown tables; format now so `deno fmt --check` stays clean.
      await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", README], stdout: "null" }).output();
      console.error("catalog: README.md updated");
    }
    return totals(results).failed === 0 ? 0 : 1;
  } finally {
    await desktop?.stop();
  }
}

if (import.meta.main) Deno.exit(await main());
