/**
 * The Deno ways to run this project work from a clone after `npm ci`, without
 * DENO_NO_PACKAGE_JSON: `deno run -A src/main.ts --version` (the frozen deno.lock must
 * match what Deno reads, package.json included) and `deno task start --version` (which
 * must not try to install package.json's npm packages into Deno's cache).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { VERSION } from "../../src/version.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const deno = `${root}node_modules/.bin/deno`;

/** Runs the pinned Deno in the clone with an environment that has no DENO_NO_PACKAGE_JSON. */
async function runDeno(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "SSL_CERT_FILE", "NPM_CONFIG_REGISTRY"]) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  const output = await new Deno.Command(deno, { args, cwd: root, env, clearEnv: true, stdin: "null" })
    .output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

Deno.test("deno run -A src/main.ts --version works without DENO_NO_PACKAGE_JSON", async () => {
  const run = await runDeno("run", "-A", "--cached-only", "src/main.ts", "--version");
  assert.equal(run.code, 0, run.stderr.slice(0, 2_000));
  assert.equal(run.stdout.trim(), `cua-driver ${VERSION}`);
});

Deno.test("deno task start --version works without DENO_NO_PACKAGE_JSON", async () => {
  const run = await runDeno("task", "start", "--version");
  assert.equal(run.code, 0, run.stderr.slice(0, 2_000));
  assert.equal(run.stdout.trim(), `cua-driver ${VERSION}`);
  assert.doesNotMatch(run.stderr, /Download/, "nothing is fetched");
});
