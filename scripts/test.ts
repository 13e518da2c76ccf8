/**
 * The test runner: starts one embedded desktop (Xvfb, session bus, AT-SPI, openbox),
 * runs `deno test` on it with `CUA_E2E_REQUIRE=1`, stops the desktop and exits with
 * `deno test`'s code. The desktop is stopped on failure and on Ctrl-C too.
 *
 *     deno run -A scripts/test.ts [extra deno test arguments]
 *
 * `CUA_TEST_DISPLAY` chooses the desktop: `embedded` (default), `existing` (use DISPLAY
 * and DBUS_SESSION_BUS_ADDRESS as they are) or `none` (no desktop; e2e tests are skipped).
 * `CUA_TEST_VERBOSE=1` prints the desktop's own output.
 *
 * @module
 */
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";
import { CACHED_ONLY } from "./deno_child.ts";

type DesktopMode = "embedded" | "existing" | "none";

function desktopMode(): DesktopMode {
  const mode = Deno.env.get("CUA_TEST_DISPLAY") ?? "embedded";
  if (mode === "existing" && !Deno.env.get("DISPLAY")) {
    console.error("test: CUA_TEST_DISPLAY=existing but DISPLAY is not set; starting an embedded desktop");
    return "embedded";
  }
  if (mode === "embedded" && Deno.build.os !== "linux") return "none";
  if (mode === "embedded" || mode === "existing" || mode === "none") return mode;
  throw new TypeError(`CUA_TEST_DISPLAY must be embedded, existing or none, not "${mode}"`);
}

/** Reads the counts from deno test's JUnit report, for the plain summary line. */
async function junitCounts(
  path: string,
): Promise<{ passed: number; failed: number; skipped: number } | null> {
  let xml: string;
  try {
    xml = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const cases = xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? [];
  let failed = 0;
  let skipped = 0;
  for (const testCase of cases) {
    if (/<(failure|error)\b/.test(testCase)) failed++;
    else if (/<skipped\b/.test(testCase)) skipped++;
  }
  return { passed: cases.length - failed - skipped, failed, skipped };
}

async function runTests(args: string[], env: Record<string, string>, junitPath: string): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    // --trace-leaks only adds stack traces to leak reports: silent while there are none.
    args: [
      "test",
      "-A",
      ...CACHED_ONLY,
      ...(args.includes("--trace-leaks") ? [] : ["--trace-leaks"]),
      `--junit-path=${junitPath}`,
      ...args,
    ],
    env,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  let signalled = 0;
  const forward = (signal: "SIGINT" | "SIGTERM", code: number) => () => {
    signalled = code;
    try {
      child.kill(signal);
    } catch {
      // Already exited.
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
    }, 5_000);
    Deno.unrefTimer(timer);
  };
  const handlers = [["SIGINT", forward("SIGINT", 130)], ["SIGTERM", forward("SIGTERM", 143)]] as const;
  for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);
  try {
    const status = await child.status;
    return signalled || status.code;
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
}

async function main(args: string[]): Promise<number> {
  const mode = desktopMode();
  const env: Record<string, string> = {};
  let desktop: EmbeddedDesktop | null = null;
  // Our own signal handling stops the desktop after deno test has exited.
  const verbose = Deno.env.get("CUA_TEST_VERBOSE") === "1";
  if (mode === "embedded") {
    desktop = await EmbeddedDesktop.start({
      handleSignals: false,
      log: verbose ? (line) => console.error(`desktop: ${line}`) : undefined,
    });
    console.error(`test: embedded desktop ${desktop.display} ready in ${desktop.startupMs} ms`);
    Object.assign(env, desktop.env);
  } else if (mode === "existing") {
    console.error(`test: using the existing desktop ${Deno.env.get("DISPLAY")}`);
  } else {
    console.error("test: no desktop; e2e tests will be skipped");
  }
  if (mode !== "none") env.CUA_E2E_REQUIRE = "1";

  const reportDir = await Deno.makeTempDir({ prefix: "cua-test-" });
  try {
    const code = await runTests(args, env, `${reportDir}/junit.xml`);
    const counts = await junitCounts(`${reportDir}/junit.xml`);
    if (counts !== null) {
      console.log(`\nsummary: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    }
    return code;
  } finally {
    await desktop?.stop();
    await Deno.remove(reportDir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    console.error(`test: ${error instanceof Error ? error.message : String(error)}`);
    const hint = (error as { data?: { hint?: string } }).data?.hint;
    if (hint) console.error(`test: ${hint}`);
    Deno.exit(1);
  }
}
