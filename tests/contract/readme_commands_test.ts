/**
 * The README's npm commands exist, and the ones that run Deno work in this repository:
 * every `npm start`, `npm test` and `npm run NAME` it names is a script in package.json,
 * and a script that runs the pinned Deno sets DENO_NO_PACKAGE_JSON=1 (package.json's npm
 * packages are optionalDependencies, which Deno ignores, so this is belt and braces:
 * deno_entry_test.ts proves Deno works without it). The README names no bare `deno task`
 * either: its task commands go through npm or name node_modules/.bin/deno.
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

async function scripts(): Promise<Record<string, string>> {
  return JSON.parse(await Deno.readTextFile(new URL("package.json", root))).scripts;
}

/** The npm script names the README's commands run: `npm start`, `npm test`, `npm run NAME`. */
async function readmeNpmScripts(): Promise<string[]> {
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const names = new Set<string>();
  for (const match of readme.matchAll(/\bnpm (start|test|run ([\w:.-]+))\b/g)) {
    names.add(match[2] ?? match[1]);
  }
  return [...names].sort();
}

Deno.test("README's npm commands are package.json scripts", async () => {
  const names = await readmeNpmScripts();
  assert.ok(names.includes("start") && names.includes("test"), names.join(", "));
  const defined = await scripts();
  assert.deepEqual(names.filter((name) => !(name in defined)), []);
});

Deno.test("package.json scripts run the pinned Deno with DENO_NO_PACKAGE_JSON=1", async () => {
  const defined = await scripts();
  const direct = Object.entries(defined).filter(([, command]) => command.includes("node_modules/.bin/deno"));
  assert.ok(direct.length >= 3, "test, bench, bundle, compile run Deno directly");
  for (const [name, command] of direct) {
    for (const part of command.split("&&").filter((part) => part.includes("node_modules/.bin/deno"))) {
      assert.match(part.trim(), /^DENO_NO_PACKAGE_JSON=1 node_modules\/\.bin\/deno /, `npm run ${name}`);
    }
  }
});

Deno.test("README names no bare `deno task`: tasks are run through npm scripts", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const bare = [...readme.matchAll(/(\S*)\s*\bdeno task [\w:-]+/g)]
    .filter((match) =>
      !/node_modules\/\.bin\/?$/.test(match[1]) && !/^`?DENO_NO_PACKAGE_JSON=1$/.test(match[1])
    )
    .map((match) => match[0]);
  assert.deepEqual(bare, []);
});
