/**
 * The repository's TypeScript files, for tests that scan the code itself.
 *
 * @module
 */
import { join } from "node:path";

/** Every `.ts` file under `dir`, depth first; directories named in `skip` are left out. */
export async function* typescriptFiles(dir: string, skip: readonly string[] = []): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !skip.includes(entry.name)) yield* typescriptFiles(path, skip);
    else if (entry.isFile && entry.name.endsWith(".ts")) yield path;
  }
}
