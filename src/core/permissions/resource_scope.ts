/**
 * What bounded mode lets an agent see: only the processes (and their windows and titles)
 * whose executable is one of the manifest's apps with `windows: true`. Listings and the
 * desktop overview filter through this; the authorizer refuses a call that names any
 * other process. Outside bounded mode everything is in scope.
 *
 * @module
 */
import { resolveProgram } from "../program_path.ts";
import type { PermissionConfig } from "./config.ts";
import { executableMatches } from "./launch_policy.ts";

/** The processes and programs the agent may see. */
export interface ResourceScope {
  /** True in bounded mode. */
  readonly bounded: boolean;
  /** False for a process outside the manifest (and for a window whose owner is unknown). */
  allowsPid(pid: number | null): boolean;
  /** False for a program (a name on PATH or a path) that is not one of the manifest's apps. */
  allowsProgram(program: string): boolean;
}

/** Everything is visible (standard and unrestricted modes). */
export const UNBOUNDED_SCOPE: ResourceScope = {
  bounded: false,
  allowsPid: () => true,
  allowsProgram: () => true,
};

/** The real path of a process's executable, or null when it cannot be read (gone, another user's). */
export function executableOf(pid: number): string | null {
  try {
    return Deno.readLinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** Builds the scope of a permission configuration. */
export function createResourceScope(config: PermissionConfig): ResourceScope {
  if (config.mode !== "bounded" || !config.manifest) return UNBOUNDED_SCOPE;
  const visible = config.manifest.resources.apps.filter((a) => a.windows && a.executable).map((a) =>
    a.executable!
  );
  const matches = (realPath: string) => visible.some((executable) => executableMatches(executable, realPath));
  return {
    bounded: true,
    allowsPid(pid) {
      if (pid === null || !Number.isInteger(pid) || pid <= 0) return false;
      const exe = executableOf(pid);
      return exe !== null && matches(exe);
    },
    allowsProgram(program) {
      const resolved = resolveProgram(program.trim());
      return resolved !== null && matches(resolved.realPath);
    },
  };
}
