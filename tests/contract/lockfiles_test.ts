/**
 * The two lockfiles stay usable by the README's commands without being rewritten:
 * `npm ci` needs package-lock.json to hold every optional dependency npm knows of, and
 * deno.lock (frozen in deno.json) must describe the deno.json imports alone. Deno reads a
 * package.json's dependencies and devDependencies but not its optionalDependencies, so the
 * npm packages (the pinned Deno, the gRPC test client) are declared there: a Deno command
 * run with or without DENO_NO_PACKAGE_JSON=1 then sees the same project (deno_entry_test.ts).
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

// deno-lint-ignore no-explicit-any
async function readJson(name: string): Promise<Record<string, any>> {
  return JSON.parse(await Deno.readTextFile(new URL(name, root)));
}

Deno.test("deno.json freezes deno.lock", async () => {
  const config = await readJson("deno.json");
  assert.deepEqual(config.lock, { path: "./deno.lock", frozen: true });
});

Deno.test("deno.lock records no package.json dependencies (written by a Deno run without DENO_NO_PACKAGE_JSON)", async () => {
  const lock = await readJson("deno.lock");
  assert.equal(
    lock.workspace?.packageJson,
    undefined,
    "remove it: DENO_NO_PACKAGE_JSON=1 node_modules/.bin/deno cache --frozen=false src/main.ts",
  );
});

Deno.test("package-lock.json holds every optional dependency of every locked package, so npm ci accepts it", async () => {
  const lock = await readJson("package-lock.json");
  const packages = lock.packages as Record<string, { optionalDependencies?: Record<string, string> }>;
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      const nested = `${path}/node_modules/${name}`;
      if (!(nested in packages) && !(`node_modules/${name}` in packages)) {
        missing.push(`${name} (of ${path})`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("package.json pins Deno 2.9.3 for the cua-driver command, out of Deno's sight", async () => {
  const pkg = await readJson("package.json");
  // npm installs optional dependencies (also for npm install -g and npx); Deno ignores them.
  assert.equal(pkg.optionalDependencies?.deno, "2.9.3");
  assert.equal(pkg.dependencies, undefined, "Deno would want these in deno.lock");
  assert.equal(pkg.devDependencies, undefined, "Deno would want these in deno.lock");
  assert.equal(pkg.bin?.["cua-driver"], "bin/cua-driver");
  // npm 11 skips dependencies' install scripts unless allowed; deno's links its platform binary.
  assert.equal(pkg.allowScripts?.deno, true);
  const lock = await readJson("package-lock.json");
  assert.equal(lock.packages["node_modules/deno"].version, "2.9.3");
});
