/**
 * What the CLI says when it is asked something it cannot do, and the listing flags:
 * `describe` of a misspelt tool suggests the close names, `list-tools` obeys `--tools` and
 * `--legacy-tools`, and a bad `--tools` is a usage error. All offline: no desktop.
 *
 * @module
 */
import assert from "node:assert/strict";
import { denoEnv, runDriver } from "../_helpers/driver.ts";

Deno.test("describe of a misspelt tool suggests the close names instead of listing every tool", async () => {
  const out = await runDriver(["describe", "clik"], { env: denoEnv() });
  assert.equal(out.code, 2);
  assert.equal(out.stderr.trim(), 'cua-driver: unknown tool "clik": did you mean "click"?');
  const far = await runDriver(["describe", "zzzzzz"], { env: denoEnv() });
  assert.match(far.stderr, /unknown tool "zzzzzz"\. Run "cua-driver list-tools" for the names/);
});

Deno.test("list-tools obeys --tools core, anthropic, openai and --legacy-tools, and refuses an unknown profile", async () => {
  const names = (text: string) => text.trim().split("\n").map((line) => line.split(":")[0]);
  const core = await runDriver(["list-tools", "--tools", "core"], { env: denoEnv() });
  assert.equal(core.code, 0, core.stderr);
  assert.ok(names(core.stdout).includes("get_window_state") && names(core.stdout).length === 14);
  const all = names((await runDriver(["list-tools"], { env: denoEnv() })).stdout);
  assert.ok(!all.includes("page") && !all.includes("escalate_session"), "legacy tools are opt-in");
  const legacy = names((await runDriver(["list-tools", "--legacy-tools"], { env: denoEnv() })).stdout);
  assert.deepEqual(legacy.filter((n) => !all.includes(n)).sort(), [
    "escalate_session",
    "get_session_state",
    "page",
  ]);
  const env = denoEnv({ CUA_DRIVER_TOOLS: "core" });
  assert.equal(
    names((await runDriver(["list-tools"], { env })).stdout).length,
    14,
    "CUA_DRIVER_TOOLS works too",
  );
  const bad = await runDriver(["list-tools", "--tools", "some"], { env: denoEnv() });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--tools must be all, core, anthropic, openai, not "some"/);
  // The vocabulary profiles list a vendor's tools instead of the driver's.
  const anthropic = names(
    (await runDriver(["list-tools", "--tools", "anthropic"], { env: denoEnv() })).stdout,
  );
  assert.equal(anthropic.length, 17);
  assert.ok(anthropic.includes("left_click") && anthropic.includes("zoom") && !anthropic.includes("click"));
  const openai = names((await runDriver(["list-tools", "--tools", "openai"], { env: denoEnv() })).stdout);
  assert.deepEqual(openai, ["computer"]);
});
