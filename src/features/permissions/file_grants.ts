/**
 * Whether a path falls inside a manifest's file grants. Both sides are resolved first
 * (canonicalPath), so a symlink inside a grant that points outside is judged by its target,
 * and a grant given through a symlink still matches its real directory. Kernel pseudo files
 * are inside no grant.
 *
 * @module
 */
import { canonicalPath, isPseudoFile } from "../../kernel/caller_paths.ts";

/** One directory grant of a capability manifest. */
export interface DirGrant {
  dir: string;
  recursive: boolean;
}

/** True when a caller path leads into one of the granted directories. */
export function insideGrants(path: string, grants: readonly DirGrant[]): boolean {
  const real = canonicalPath(path);
  if (isPseudoFile(real)) return false;
  return grants.some((grant) => {
    const dir = canonicalPath(grant.dir);
    if (!real.startsWith(dir.endsWith("/") ? dir : `${dir}/`)) return false;
    return grant.recursive || !real.slice(dir.length + 1).includes("/");
  });
}
