/**
 * What build this is: the version, and the git commit of the source when it can be
 * known. A release build may set {@linkcode BUILD_SOURCE_SHA}; a run from a source
 * checkout reads the commit from the checkout's `.git`; anything else is "unknown".
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../version.ts";

export { VERSION };

/** Set by a release build to the commit it was built from; "unknown" otherwise. */
export const BUILD_SOURCE_SHA: string = "unknown";

let cached: string | null = null;

/** The source commit: the build's, else the checkout's HEAD, else "unknown". Cached. */
export function sourceSha(): string {
  cached ??= BUILD_SOURCE_SHA !== "unknown" ? BUILD_SOURCE_SHA : checkoutSha() ?? "unknown";
  return cached;
}

/** HEAD of the git checkout this module file sits in, without running git. */
function checkoutSha(): string | null {
  if (!import.meta.url.startsWith("file:")) return null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const gitDir = resolveGitDir(join(dir, ".git"));
    if (gitDir !== null) return readHead(gitDir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/** `.git` is a directory, or a file `gitdir: <path>` in worktrees and submodules. */
function resolveGitDir(path: string): string | null {
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) return path;
    const match = /^gitdir:\s*(.+)$/m.exec(Deno.readTextFileSync(path));
    return match ? resolve(dirname(path), match[1].trim()) : null;
  } catch {
    return null;
  }
}

function readHead(gitDir: string): string | null {
  try {
    const head = Deno.readTextFileSync(join(gitDir, "HEAD")).trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
    if (!ref) return null;
    // Worktrees keep refs in the common directory.
    const common = readOptional(join(gitDir, "commondir"));
    const dirs = [gitDir, ...(common ? [resolve(gitDir, common.trim())] : [])];
    for (const dir of dirs) {
      const loose = readOptional(join(dir, ref))?.trim();
      if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose;
      const packed = readOptional(join(dir, "packed-refs"));
      const line = packed?.split("\n").find((l) => l.endsWith(` ${ref}`));
      if (line) return line.slice(0, 40);
    }
    return null;
  } catch {
    return null;
  }
}

function readOptional(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/**
 * The command that starts this driver, for an MCP client's `command`: the launcher that ran it
 * (bin/cua-driver sets `CUA_DRIVER_LAUNCHER` to the path it was called by), else this executable, which
 * is the driver itself in a `deno compile` build.
 */
export function launcherPath(): string {
  return Deno.env.get("CUA_DRIVER_LAUNCHER") || Deno.execPath();
}
