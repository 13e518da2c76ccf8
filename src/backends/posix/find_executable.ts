/**
 * The driver's one program lookup on Linux and macOS: a path is checked to be an
 * executable regular file, a bare name is looked up on `PATH` the way `execvp` does.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "../../lib/file_paths.ts";

/** PATH when the environment has none (execvp's `confstr(_CS_PATH)` plus the sbin directories). */
export const DEFAULT_SEARCH_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";

function executableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The executable `name` resolves to, or null.
 *
 * @param name a path (absolute, or relative to the working directory) or a bare program name.
 * @param searchPath the PATH value to search; the driver's own (or {@linkcode DEFAULT_SEARCH_PATH}) when absent.
 * @example
 * ```ts
 * import { findExecutableSync } from "./find_executable.ts";
 * findExecutableSync("sh"); // "/usr/bin/sh" (or "/bin/sh")
 * ```
 */
export function findExecutableSync(name: string, searchPath?: string): string | null {
  if (name === "") return null;
  if (name.includes("/")) {
    const path = isAbsolute(name) ? name : resolve(name);
    return executableFile(path) ? path : null;
  }
  const dirs = (searchPath ?? Deno.env.get("PATH") ?? DEFAULT_SEARCH_PATH).split(":");
  for (const dir of dirs) {
    // An empty PATH entry means the working directory (POSIX).
    const candidate = join(dir === "" ? Deno.cwd() : dir, name);
    if (executableFile(candidate)) return isAbsolute(candidate) ? candidate : resolve(candidate);
  }
  return null;
}

/** {@linkcode findExecutableSync} as a promise, for `SystemBackend.findExecutable`. */
export function findExecutable(name: string, searchPath?: string): Promise<string | null> {
  return Promise.resolve(findExecutableSync(name, searchPath));
}
