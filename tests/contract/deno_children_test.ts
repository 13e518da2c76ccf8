/**
 * Every `deno run` / `deno test` child that a test or script starts loads its modules from
 * the cache setup filled (`--cached-only`, through `driverArgs` or `CACHED_ONLY` from
 * scripts/deno_child.ts). A child that may fetch passes on a warm machine and fails on a
 * fresh one, which is how the cold-clone failures of issue 9 hid; this scan finds one
 * before CI's fresh clone does.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { typescriptFiles } from "../_helpers/source_files.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Where children are started: everything but the driver itself, whose only Deno child is its PNG Worker. */
const DIRS = ["tests", "scripts", "bench", "src", "tools"];

/** Directories not scanned: installed packages, generated code, test data. */
const SKIP = ["node_modules", "gen", "fixtures"];

/** `Deno.execPath()` calls whose next lines start `run` or `test` without a cache-only flag. */
export function uncachedChildren(text: string): number[] {
  const lines = text.split("\n");
  const found: number[] = [];
  lines.forEach((line, i) => {
    if (!line.includes("Deno.execPath()") || /^\s*(\*|\/\/)/.test(line)) return;
    const window = lines.slice(i, i + 12).join("\n");
    const argsStart = window.search(/args:|\[\s*"(run|test)"|driverArgs\(/);
    if (argsStart < 0) return;
    const args = window.slice(argsStart, argsStart + 400);
    if (!/"(run|test)"/.test(args.split("]")[0] + "]")) return;
    if (/--cached-only|CACHED_ONLY|driverArgs\(/.test(args)) return;
    found.push(i + 1);
  });
  return found;
}

Deno.test("uncachedChildren flags a deno run child without --cached-only and passes the helpers", () => {
  assert.deepEqual(
    uncachedChildren(`new Deno.Command(Deno.execPath(), {\n  args: ["run", "-A", main],\n});`),
    [1],
  );
  assert.deepEqual(
    uncachedChildren(
      `new Deno.Command(Deno.execPath(), {\n  args: ["run", "-A", ...CACHED_ONLY, main],\n});`,
    ),
    [],
  );
  assert.deepEqual(uncachedChildren(`command: Deno.execPath(),\nargs: driverArgs("mcp"),`), []);
  assert.deepEqual(
    uncachedChildren(`new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", p] });`),
    [],
  );
  assert.deepEqual(uncachedChildren(`await offline(Deno.execPath(), ["test", "-A", file], env);`), [1]);
});

Deno.test("every deno run/test child in the tests and scripts runs --cached-only", async () => {
  const offenders: string[] = [];
  for (const dir of DIRS) {
    for await (const file of typescriptFiles(join(ROOT, dir), SKIP)) {
      if (file.endsWith("deno_children_test.ts")) continue;
      for (const line of uncachedChildren(await Deno.readTextFile(file))) {
        offenders.push(`${relative(ROOT, file)}:${line}`);
      }
    }
  }
  assert.deepEqual(
    offenders,
    [],
    "start Deno children with driverArgs() (tests/_helpers/driver.ts) or ...CACHED_ONLY (scripts/deno_child.ts)",
  );
});
