/**
 * What bounded mode lets an agent see: only the processes (and their windows and titles)
 * whose executable is one of the manifest's apps with `windows: true`, running on the driver's
 * desktop (a process of the same app on another display of the machine is outside). Listings and the
 * desktop overview filter through this; the authorizer refuses a call that names any
 * other process. Outside bounded mode everything is in scope.
 *
 * @module
 */
import type { SystemBackend } from "../../ports/system.ts";
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

/**
 * Builds the scope of a permission configuration; `system` reads a process's executable and
 * resolves program names as the OS does.
 */
export function createResourceScope(
  config: PermissionConfig,
  system: Pick<SystemBackend, "processExecutableSync" | "resolveProgram" | "processOnDesktopSync">,
): ResourceScope {
  if (config.mode !== "bounded" || !config.manifest) return UNBOUNDED_SCOPE;
  const visible = config.manifest.resources.apps.filter((a) => a.windows && a.executable).map((a) =>
    a.executable!
  );
  const resolve = (name: string) => system.resolveProgram?.(name) ?? null;
  const matches = (realPath: string) =>
    visible.some((executable) => executableMatches(executable, realPath, resolve));
  return {
    bounded: true,
    allowsPid(pid) {
      if (pid === null || !Number.isInteger(pid) || pid <= 0) return false;
      const exe = system.processExecutableSync?.(pid) ?? null;
      if (exe === null || !matches(exe)) return false;
      return system.processOnDesktopSync?.(pid) !== false;
    },
    allowsProgram(program) {
      const resolved = resolve(program.trim());
      return resolved !== null && matches(resolved.realPath);
    },
  };
}
