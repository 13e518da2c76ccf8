/**
 * The smoke steps of `.github/workflows/platforms.yml`, the same on every OS: the CLI
 * answers `--version` and `list-tools`, and `list_windows`, `get_screen_size` and
 * `get_desktop_state` (a screenshot) each either succeed or refuse with a structured error whose code says
 * why (a runner without a Screen Recording grant, a back end not implemented yet).
 * A crash, an unstructured error or an unexpected code fails the step.
 *
 *     deno run -A scripts/platform_smoke.ts [--require-success list_windows,get_screen_size]
 *
 * @module
 */
import { parseArgs } from "node:util";

const root = new URL("..", import.meta.url).pathname.replace(/^\/([A-Za-z]:)/, "$1");
const { values } = parseArgs({ options: { "require-success": { type: "string", default: "" } } });
const mustSucceed = new Set(values["require-success"]!.split(",").filter(Boolean));

/** Refusals a runner may legitimately answer with (no TCC grant, no desktop, not implemented). */
const ACCEPTED_REFUSALS = new Set([
  "permission_denied",
  "unsupported_platform",
  "display_unavailable",
  "library_unavailable",
  "capture_failed",
]);

async function driver(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", `${root}src/main.ts`, ...args],
    env: { DENO_NO_PACKAGE_JSON: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

let failures = 0;
function report(step: string, ok: boolean, detail: string): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${step}: ${detail}`);
  if (!ok) failures++;
}

const version = await driver(["--version"]);
report("--version", version.code === 0 && /^cua-driver \S+/.test(version.stdout), version.stdout.trim());

const tools = await driver(["list-tools"]);
const count = tools.stdout.split("\n").filter((line) => line.trim()).length;
report(
  "list-tools",
  tools.code === 0 && count >= 50 && /^get_window_state/m.test(tools.stdout),
  `${count} tools`,
);

for (const tool of ["list_windows", "get_screen_size", "get_desktop_state"]) {
  const run = await driver([tool]);
  const text = run.code === 0 ? run.stdout : run.stderr;
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(text.slice(text.indexOf("{")));
  } catch {
    parsed = null;
  }
  if (run.code === 0 && parsed) {
    const summary = tool === "list_windows"
      ? `${(parsed.windows as unknown[]).length} windows`
      : tool === "get_screen_size"
      ? `${parsed.width}x${parsed.height} @ ${parsed.scale_factor}x`
      : `${parsed.screenshot_width}x${parsed.screenshot_height} screenshot`;
    report(tool, true, summary);
  } else if (parsed && typeof parsed.code === "string") {
    const accepted = ACCEPTED_REFUSALS.has(parsed.code) && !mustSucceed.has(tool);
    report(tool, accepted, `refused: ${parsed.code}: ${parsed.message}`);
  } else {
    report(tool, false, `exit ${run.code} without a structured result: ${text.slice(0, 400)}`);
  }
}

console.log(failures ? `${failures} smoke step(s) failed` : "all smoke steps passed");
Deno.exit(failures ? 1 : 0);
