/**
 * Every back end has the same shape: one file per capability at its root, under the same name in
 * each OS (src/backends/<os>/screen.ts, windows.ts, ...), and its mod.ts builds the back end from
 * those files. A new back end (Wayland) passes this test when it is written in that shape.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const BACKENDS = fileURLToPath(new URL("../../src/backends/", import.meta.url));

/** The capability files every back end has (mod.ts assembles them). */
export const CAPABILITIES = [
  "accessibility",
  "apps",
  "clipboard",
  "health",
  "input",
  "permissions",
  "screen",
  "sockets",
  "system",
  "windows",
] as const;

/** Capabilities a back end may lack; when it has one, it is under this name. */
export const OPTIONAL_CAPABILITIES = ["cursor", "perception"] as const;

/** Folders under src/backends/ that are not an OS's back end. */
const NOT_AN_OS = new Set(["fake", "posix"]);

function backends(): string[] {
  return [...Deno.readDirSync(BACKENDS)]
    .filter((e) => e.isDirectory && !NOT_AN_OS.has(e.name))
    .map((e) => e.name)
    .sort();
}

function rootFiles(os: string): Set<string> {
  return new Set(
    [...Deno.readDirSync(BACKENDS + os)].filter((e) => e.isFile && e.name.endsWith(".ts")).map((e) => e.name),
  );
}

/** The root files a back end's mod.ts imports (statically or with a literal import()). */
function modImports(os: string): Set<string> {
  const text = Deno.readTextFileSync(`${BACKENDS}${os}/mod.ts`);
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:from\s*|import\(\s*)["']\.\/([a-z_]+\.ts)["']/g)) out.add(m[1]);
  return out;
}

Deno.test("backend files: every OS back end has each capability file at its root", () => {
  const found = backends();
  assert.ok(found.includes("linux") && found.includes("windows") && found.includes("darwin"), `${found}`);
  for (const os of found) {
    const files = rootFiles(os);
    const missing = ["mod", ...CAPABILITIES].filter((c) => !files.has(`${c}.ts`));
    assert.deepEqual(missing, [], `src/backends/${os}/ lacks ${missing.map((c) => `${c}.ts`).join(", ")}`);
  }
});

Deno.test("backend files: each back end's mod.ts assembles its capabilities from those files", () => {
  for (const os of backends()) {
    const imported = modImports(os);
    const files = rootFiles(os);
    const expected = [...CAPABILITIES, ...OPTIONAL_CAPABILITIES.filter((c) => files.has(`${c}.ts`))]
      // The sockets are what the daemon client loads alone, through src/backends/mod.ts.
      .filter((c) => c !== "sockets");
    const unused = expected.filter((c) => !imported.has(`${c}.ts`));
    assert.deepEqual(unused, [], `src/backends/${os}/mod.ts does not import ${unused.join(", ")}`);
  }
});
