/**
 * The test suite under load: starts two CPU-burning processes (one busy loop each), runs
 * `scripts/test.ts` the given number of times in a row while they burn, and reports how
 * many runs passed. Tests wait on conditions, not on wall clocks, so a slow machine must
 * not fail them; this script is how that claim is checked.
 *
 *     deno run -A scripts/test_under_load.ts [--runs N] [--burners N] [-- extra test.ts arguments]
 *
 * Results (runs, passes, each run's seconds and failing tests) are appended to
 * `bench/results_load_suite.md`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { CACHED_ONLY } from "./deno_child.ts";

const root = new URL("..", import.meta.url).pathname;
const dashDash = Deno.args.indexOf("--");
const { values } = parseArgs({
  args: dashDash < 0 ? Deno.args : Deno.args.slice(0, dashDash),
  options: { runs: { type: "string", default: "10" }, burners: { type: "string", default: "2" } },
});
const extra = dashDash < 0 ? [] : Deno.args.slice(dashDash + 1);
const runs = Number(values.runs);
const burnerCount = Number(values.burners);
if (!Number.isInteger(runs) || runs < 1) throw new TypeError("--runs must be a positive integer");
if (!Number.isInteger(burnerCount) || burnerCount < 0) throw new TypeError("--burners must be 0 or more");

/** One busy loop in a child process; killed at the end. */
function startBurner(): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", "for (;;) {}"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** Failing test names from the run's output (deno test's FAILURES section). */
function failures(output: string): string[] {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const section = plain.split(/^ FAILURES\s*$/m)[1] ?? "";
  return section.split("\n").filter((line) => line.includes(" => ")).map((line) =>
    line.split(" => ")[0].trim()
  );
}

const burners = Array.from({ length: burnerCount }, startBurner);
const results: { run: number; passed: boolean; seconds: number; summary: string; failed: string[] }[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", ...CACHED_ONLY, `${root}scripts/test.ts`, ...extra],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const out = await child.output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    const seconds = Math.round((performance.now() - started) / 1000);
    const summary = text.match(/^summary: .*$/m)?.[0] ?? `exit ${out.code}`;
    results.push({ run, passed: out.success, seconds, summary, failed: failures(text) });
    const last = results.at(-1)!;
    console.log(`run ${run}/${runs}: ${last.passed ? "pass" : "FAIL"} in ${seconds} s (${summary})`);
    for (const name of last.failed) console.log(`  failed: ${name}`);
    if (!last.passed) {
      const log = await Deno.makeTempFile({ prefix: `cua-load-run-${run}-`, suffix: ".log" });
      await Deno.writeTextFile(log, text);
      console.log(`  output: ${log}`);
    }
  }
} finally {
  for (const burner of burners) {
    try {
      burner.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await burner.status;
  }
}

const passes = results.filter((r) => r.passed).length;
const line =
  `${new Date().toISOString()}: ${passes}/${results.length} runs of ${
    ["scripts/test.ts", ...extra].join(" ")
  }` +
  ` passed with ${burnerCount} CPU burners; seconds per run ${results.map((r) => r.seconds).join(", ")}` +
  (results.some((r) => r.failed.length)
    ? `; failed: ${[...new Set(results.flatMap((r) => r.failed))].join("; ")}`
    : "");
console.log(line);
const resultsPath = `${root}bench/results_load_suite.md`;
await Deno.writeTextFile(resultsPath, `- ${line}\n`, { append: true });
// deno fmt wraps long Markdown lines; format now so `deno fmt --check` stays clean after a run.
await new Deno.Command(Deno.execPath(), {
  args: ["fmt", "--quiet", "--config", `${root}deno.json`, resultsPath],
  stdout: "null",
}).output();
Deno.exit(passes === results.length ? 0 : 1);
