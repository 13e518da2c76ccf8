/**
 * Import boundaries (STYLE.md S9), checked from the import statements and literal
 * `import()` calls of every source file: raw bindings stay raw, tools never reach an OS folder or a native
 * library, and only src/platform/mod.ts chooses an OS.
 *
 *     deno run -A scripts/check_boundaries.ts     (exit 1 and a list on violation)
 *
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(new URL("..", import.meta.url).pathname);
const OS_DIR = /^src\/platform\/(linux|darwin|windows)\//;

/** One forbidden import. */
export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

/** The rule an import from `from` to `to` breaks (repository-relative paths), or null. */
export function rule(from: string, to: string): string | null {
  if (to.startsWith("src/transports/grpc/gen/")) return null;
  if (from.startsWith("ffi/") && !to.startsWith("ffi/")) return "ffi/ imports only ffi/";
  if (from.startsWith("tools/") && (to.startsWith("ffi/") || OS_DIR.test(to))) {
    return "tools/ never import ffi/ or an OS folder (add a method to the back-end interface)";
  }
  if (from.startsWith("src/core/") && (to.startsWith("ffi/") || OS_DIR.test(to) || to.startsWith("tools/"))) {
    return "src/core/ is platform-neutral: no ffi/, OS folders or tools/";
  }
  if (from.startsWith("src/transports/") && (to.startsWith("ffi/") || OS_DIR.test(to))) {
    return "transports adapt the registry; they never import ffi/ or an OS folder";
  }
  const osOf = (path: string) => OS_DIR.exec(path)?.[1];
  if (
    osOf(to) && osOf(from) !== osOf(to) && from !== "src/platform/mod.ts" && /\/mod\.ts$/.test(to) &&
    to.split("/").length === 4
  ) {
    return "only src/platform/mod.ts imports an OS folder's mod.ts";
  }
  if (osOf(from) && osOf(to) && osOf(from) !== osOf(to)) {
    return "an OS folder never imports another OS folder";
  }
  return null;
}

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(root, dir))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !["node_modules", "gen", "dist", "fixtures"].includes(entry.name)) {
      yield* sourceFiles(path);
    } else if (entry.isFile && path.endsWith(".ts") && !path.endsWith("_test.ts")) yield path;
  }
}

/** Every violation in the repository. */
export async function findViolations(): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const top of ["ffi", "src", "tools"]) {
    for await (const file of sourceFiles(top)) {
      const text = await Deno.readTextFile(join(root, file));
      const imports =
        /(?:^|\n)\s*(?:import|export)[^"';]*?from\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
      for (const match of text.matchAll(imports)) {
        const specifier = match[1] ?? match[2];
        if (!specifier.startsWith(".")) continue;
        const target = relative(root, resolve(root, dirname(file), specifier));
        const broken = rule(file, target);
        if (broken) violations.push({ file, imports: target, rule: broken });
      }
    }
  }
  return violations;
}

if (import.meta.main) {
  const violations = await findViolations();
  for (const v of violations) console.error(`${v.file} imports ${v.imports}: ${v.rule}`);
  console.log(violations.length ? `${violations.length} boundary violations` : "import boundaries hold");
  Deno.exit(violations.length ? 1 : 0);
}
