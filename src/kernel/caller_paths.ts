/**
 * What a caller's path names, judged without opening anything: `~` expanded, made absolute,
 * and (for grant checks) resolved through every existing symlink. Kept apart from
 * `safe_files.ts` (which opens files through node:fs) so that the authorizer, which every
 * call runs, loads no `node:` module.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve, sep } from "../lib/file_paths.ts";

/** Kernel pseudo file systems: their files are views of processes and devices, never a caller's data. */
const PSEUDO_ROOTS = ["/proc", "/sys", "/dev"];

/**
 * Expands `~` and `~/...` and makes a caller path absolute (relative paths are taken from
 * the driver's working directory).
 */
export function expandCallerPath(path: string): string {
  const home = Deno.env.get("HOME") ?? "/";
  const expanded = path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(Deno.cwd(), expanded);
}

/**
 * Where a caller path really leads: the real path of its longest existing prefix (every
 * symlink resolved, the last component too when it exists) followed by the components that
 * do not exist yet. Grant checks compare this, never the text the caller sent.
 */
export function canonicalPath(path: string): string {
  const absolute = expandCallerPath(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(Deno.realPathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** True when `path` (canonical) is a kernel pseudo file or under one. */
export function isPseudoFile(path: string): boolean {
  return sep === "/" && PSEUDO_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}
