/**
 * Bounded mode's launch check: the program launch_app is about to run, resolved to its real
 * file, must be one the manifest lets the agent launch, and its arguments are part of the
 * grant: when the manifest lists the app's exact argument lists, the caller's arguments must
 * be one of them; otherwise every file they name (launch_files.ts) must lie inside a read
 * grant (a file that exists) or a write grant (one the app would create). It runs inside the
 * launcher after the program is resolved and right before it starts (LaunchRequest.authorize),
 * so what is checked is exactly what runs: never the text of a command line.
 *
 * @module
 */
import type { LaunchProgram } from "../../ports/apps.ts";
import type { ResolvedProgram } from "../../ports/system.ts";
import { DriverError } from "../../ports/errors.ts";
import type { PermissionConfig } from "./config.ts";
import { insideGrants } from "./file_grants.ts";
import { argumentFiles } from "./launch_files.ts";
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

type ManifestApp = CapabilityManifest["resources"]["apps"][number];

/** The apps a manifest lets the agent launch. */
function launchable(manifest: CapabilityManifest): ManifestApp[] {
  return manifest.resources.apps.filter((a) => a.launch && a.executable);
}

function outside(what: string, program: LaunchProgram, hint: string): DriverError {
  return new DriverError(
    "bounded_resource_outside_manifest",
    `Permission denied: ${what} is outside the capability manifest`,
    {
      tool: "launch_app",
      program: program.realPath,
      hint,
    },
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, i) => arg === b[i]);
}

/** Throws unless the manifest grants these arguments to one of the matching apps. */
function checkArguments(manifest: CapabilityManifest, apps: ManifestApp[], program: LaunchProgram): void {
  const args = program.callerArgs ?? program.args;
  const listed = apps.filter((a) => a.arguments !== undefined);
  if (listed.length === apps.length) {
    if (listed.some((a) => a.arguments!.some((allowed) => sameList(allowed, args)))) return;
    throw outside(
      `launching "${program.realPath}" with the arguments ${JSON.stringify(args)}`,
      program,
      "the manifest lists the exact arguments this app may get (resources.apps[].arguments)",
    );
  }
  if (listed.some((a) => a.arguments!.some((allowed) => sameList(allowed, args)))) return;
  for (const file of argumentFiles(args)) {
    const grants = file.exists ? manifest.resources.files.read : manifest.resources.files.write;
    if (!insideGrants(file.path, grants)) {
      throw outside(
        `${file.exists ? "reading" : "writing"} "${file.path}" (argument ${JSON.stringify(file.argument)})`,
        program,
        "files an app is launched with must lie inside the manifest's read grants (write grants for new files)",
      );
    }
  }
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
  const manifest = config.manifest;
  const allowed = launchable(manifest);
  return (program) => {
    const apps = allowed.filter((app) =>
      executableMatches(app.executable!, program.realPath, resolve, program.dev, program.ino)
    );
    if (apps.length > 0) {
      checkArguments(manifest, apps, program);
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
