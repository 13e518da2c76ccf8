/**
 * Finding the one program a name means: a path (absolute, or relative to the working
 * directory) or a bare name looked up on `PATH`, resolved to the real file behind every
 * symlink. Launching and the bounded-mode comparison both go through here, so what is
 * checked is what runs.
 *
 * @module
 */
import type { ResolvedProgram } from "../../ports/system.ts";
import { delimiter, isAbsolute, resolve, sep } from "../../lib/file_paths.ts";

/** Where to look. */
export interface ProgramLookup {
  /** The PATH value to search; the driver's own when absent. */
  path?: string;
  /** Base of relative paths; the working directory when absent. */
  cwd?: string;
  /** Suffixes to try after the bare name (Windows PATHEXT); none on POSIX. */
  extensions?: readonly string[];
}

/** True when `name` names a path rather than a program to look up. */
export function isProgramPath(name: string): boolean {
  return name.includes("/") || (sep !== "/" && name.includes(sep));
}

function executableFile(path: string): ResolvedProgram | null {
  try {
    const realPath = Deno.realPathSync(path);
    const info = Deno.statSync(realPath);
    if (!info.isFile) return null;
    // Windows reports no mode: every regular file there is a candidate.
    if (info.mode !== null && (info.mode & 0o111) === 0) return null;
    return { path, realPath, dev: info.dev, ino: info.ino ?? 0 };
  } catch {
    return null;
  }
}

/**
 * Resolves a program name the way `execvp` would, without running anything.
 *
 * @param name An absolute or relative path, or a bare program name.
 * @returns The program, or null when no executable regular file answers to the name.
 * @example
 * ```ts ignore
 * resolveProgram("sh")?.realPath; // "/usr/bin/dash" on Debian
 * ```
 */
export function resolveProgram(name: string, lookup: ProgramLookup = {}): ResolvedProgram | null {
  if (name === "" || name.includes("\0")) return null;
  const suffixes = ["", ...(lookup.extensions ?? [])];
  if (isProgramPath(name)) {
    const absolute = isAbsolute(name) ? name : resolve(lookup.cwd ?? Deno.cwd(), name);
    for (const suffix of suffixes) {
      const found = executableFile(absolute + suffix);
      if (found) return found;
    }
    return null;
  }
  const path = lookup.path ?? Deno.env.get("PATH") ?? "";
  for (const dir of path.split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue;
    for (const suffix of suffixes) {
      const found = executableFile(resolve(dir, name + suffix));
      if (found) return found;
    }
  }
  return null;
}

/** True when both name the same file (same real path, or same device and inode). */
export function sameProgram(a: ResolvedProgram, b: ResolvedProgram): boolean {
  return a.realPath === b.realPath || (a.ino !== 0 && a.dev === b.dev && a.ino === b.ino);
}

export type { ResolvedProgram };
