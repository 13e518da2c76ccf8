/**
 * The few path operations the driver's start-up path needs (`join`, `dirname`, `basename`,
 * `isAbsolute`, `normalize`, `resolve`), without node:path: the first `node:` import of a
 * process loads Deno's Node compatibility layer (errors, assert, util, process), which a
 * one-shot CLI call measured at about a third of its own start-up. POSIX semantics, and on
 * Windows drive letters, UNC roots and both separators (results use the separator of the OS);
 * drive-relative paths ("C:foo") are not resolved against a per-drive directory. Tested against
 * node:path's posix and win32 flavours.
 *
 * @module
 */

/** The operations for one flavour. */
export interface PathFlavour {
  join(...parts: string[]): string;
  dirname(path: string): string;
  basename(path: string): string;
  isAbsolute(path: string): boolean;
  normalize(path: string): string;
  resolve(...parts: string[]): string;
}

/** Builds the operations for POSIX (`windows` false) or Windows paths. */
export function pathFlavour(windows: boolean, cwd: () => string = () => Deno.cwd()): PathFlavour {
  const sep = windows ? "\\" : "/";
  const isSep = (ch: string) => ch === "/" || (windows && ch === "\\");
  /** The root of a path: "/" (POSIX), "C:\\", "C:", "\\\\server\\share\\" or "\\" (Windows), or "". */
  const rootOf = (path: string): string => {
    if (!windows) return path.startsWith("/") ? "/" : "";
    const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/.exec(path);
    if (unc) return `\\\\${unc[1]}\\${unc[2]}\\`;
    const drive = /^[A-Za-z]:/.exec(path);
    if (drive) return isSep(path[2] ?? "") ? `${drive[0]}\\` : drive[0];
    return isSep(path[0] ?? "") ? "\\" : "";
  };
  const rootLength = (path: string): number => {
    if (!windows) return path.startsWith("/") ? 1 : 0;
    const unc = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]+[\\/]*/.exec(path);
    if (unc) return unc[0].length;
    const drive = /^[A-Za-z]:[\\/]?/.exec(path);
    if (drive) return drive[0].length;
    return isSep(path[0] ?? "") ? 1 : 0;
  };

  function normalize(path: string): string {
    if (path === "") return ".";
    const root = rootOf(path);
    const absolute = root !== "" && (!windows || isSep(root[root.length - 1]));
    const segments: string[] = [];
    for (const segment of path.slice(rootLength(path)).split(windows ? /[\\/]/ : "/")) {
      if (segment === "" || segment === ".") continue;
      if (segment === ".." && segments.length > 0 && segments[segments.length - 1] !== "..") segments.pop();
      else if (segment !== ".." || !absolute) segments.push(segment);
    }
    const trailing = isSep(path[path.length - 1]) && segments.length > 0 ? sep : "";
    const body = segments.join(sep);
    if (root === "") return (body || ".") + trailing;
    return root + body + trailing;
  }

  function isAbsolute(path: string): boolean {
    if (!windows) return path.startsWith("/");
    return isSep(path[0] ?? "") || /^[A-Za-z]:[\\/]/.test(path);
  }

  function join(...parts: string[]): string {
    const kept = parts.filter((part) => part !== "");
    if (kept.length === 0) return ".";
    let joined = kept.join(sep);
    // Joining never makes a UNC root out of parts that had none ("\\" + "..").
    if (windows && !/^[\\/]{2}/.test(kept[0])) joined = joined.replace(/^[\\/]{2,}/, "\\");
    return normalize(joined);
  }

  /** As node:path: drops the last name and exactly one separator before it. */
  function dirname(path: string): string {
    if (path === "") return ".";
    const rootLen = rootLength(path);
    let end = -1;
    let trailing = true;
    for (let i = path.length - 1; i >= Math.max(rootLen, 1); i--) {
      if (!isSep(path[i])) trailing = false;
      else if (!trailing) {
        end = i;
        break;
      }
    }
    if (end === -1) return rootLen > 0 ? path.slice(0, rootLen) : ".";
    if (!windows && rootLen === 1 && end === 1) return "//";
    return path.slice(0, end);
  }

  function basename(path: string): string {
    // As node:path: only a drive letter is skipped (a UNC share's name is a basename).
    const rootLen = windows && /^[A-Za-z]:/.test(path) ? 2 : 0;
    let end = path.length;
    while (end > rootLen && isSep(path[end - 1])) end--;
    let start = end;
    while (start > rootLen && !isSep(path[start - 1])) start--;
    return path.slice(start, end);
  }

  function resolve(...parts: string[]): string {
    let resolved = "";
    for (let i = parts.length - 1; i >= 0 && !isAbsolute(resolved); i--) {
      if (parts[i] === "") continue;
      resolved = resolved === "" ? parts[i] : `${parts[i]}${sep}${resolved}`;
    }
    if (!isAbsolute(resolved)) resolved = resolved === "" ? cwd() : `${cwd()}${sep}${resolved}`;
    // Windows: a root-relative path ("\\x") is on the working directory's drive.
    if (windows && rootOf(resolved) === "\\") resolved = (/^[A-Za-z]:/.exec(cwd())?.[0] ?? "") + resolved;
    const normalized = normalize(resolved);
    return normalized.length > rootLength(normalized) && isSep(normalized[normalized.length - 1])
      ? normalized.slice(0, -1)
      : normalized;
  }

  return { join, dirname, basename, isAbsolute, normalize, resolve };
}

const windowsHost = Deno.build.os === "windows";
const here = pathFlavour(windowsHost);

/** The path separator of this OS (as node:path `sep`). */
export const sep: "/" | "\\" = windowsHost ? "\\" : "/";
/** The separator of PATH-like lists on this OS (as node:path `delimiter`). */
export const delimiter: ":" | ";" = windowsHost ? ";" : ":";

/** Joins parts with the OS separator and normalizes the result (as node:path `join`). */
export const join: (...parts: string[]) => string = here.join;
/** The directory part of a path (as node:path `dirname`). */
export const dirname: (path: string) => string = here.dirname;
/** The last part of a path (as node:path `basename`, without the suffix argument). */
export const basename: (path: string) => string = here.basename;
/** True for an absolute path (as node:path `isAbsolute`). */
export const isAbsolute: (path: string) => boolean = here.isAbsolute;
/** Resolves `.` and `..` and repeated separators (as node:path `normalize`). */
export const normalize: (path: string) => string = here.normalize;
/** An absolute, normalized path from parts, right to left, then the working directory (node:path `resolve`). */
export const resolve: (...parts: string[]) => string = here.resolve;
