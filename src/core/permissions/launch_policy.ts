/**
 * Bounded mode's launch check: the program launch_app is about to run, resolved to its real
 * file, must be one the manifest lets the agent launch. It runs inside the launcher after
 * the program is resolved and right before it starts (LaunchRequest.authorize), so what is
 * checked is exactly what runs: never the text of a command line.
 *
 * @module
 */
import type { LaunchProgram, ResolvedProgram } from "../../platform/types.ts";
import { DriverError } from "../errors.ts";
import type { PermissionConfig } from "./config.ts";
import type { CapabilityManifest } from "./manifest.ts";

/** Throws when a resolved program may not run. */
export type LaunchPolicy = (program: LaunchProgram) => void;

/** Lets every program through (standard and unrestricted modes; the launch guard still applies). */
export const allowAnyProgram: LaunchPolicy = () => {};

/**
 * True when the manifest's `executable` names this file: a path is compared by its real
 * path (an app bundle directory too), a bare name by the file it resolves to on PATH (and,
 * when it resolves to nothing, by the real file's basename).
 */
export function executableMatches(
  executable: string,
  realPath: string,
  resolve: ProgramResolver,
  dev = 0,
  ino = 0,
): boolean {
  const wanted = resolve(executable);
  if (wanted !== null) {
    return wanted.realPath === realPath || (wanted.ino !== 0 && wanted.dev === dev && wanted.ino === ino);
  }
  if (/[\\/]/.test(executable)) {
    try {
      return Deno.realPathSync(executable) === realPath;
    } catch {
      return false;
    }
  }
  return realPath.slice(realPath.lastIndexOf("/") + 1) === executable;
}

/** The apps a manifest lets the agent launch. */
function launchable(manifest: CapabilityManifest): string[] {
  return manifest.resources.apps.filter((a) => a.launch && a.executable).map((a) => a.executable!);
}

/** The OS's program resolution (`SystemBackend.resolveProgram`), or a resolver that finds nothing. */
export type ProgramResolver = (name: string) => ResolvedProgram | null;

/** A resolver for an OS that does not say which file a name runs. */
export const resolvesNothing: ProgramResolver = () => null;

/** Builds the launch check for a permission configuration. */
export function createLaunchPolicy(
  config: PermissionConfig,
  resolve: ProgramResolver = resolvesNothing,
): LaunchPolicy {
  if (config.mode !== "bounded" || !config.manifest) return allowAnyProgram;
  const allowed = launchable(config.manifest);
  return (program) => {
    if (
      allowed.some((executable) =>
        executableMatches(executable, program.realPath, resolve, program.dev, program.ino)
      )
    ) {
      return;
    }
    throw new DriverError(
      "bounded_resource_outside_manifest",
      `Permission denied: launching "${program.realPath}" is outside the capability manifest`,
      {
        tool: "launch_app",
        program: program.realPath,
        hint: "the manifest's resources.apps lists the executables bounded mode may launch",
      },
    );
  };
}
