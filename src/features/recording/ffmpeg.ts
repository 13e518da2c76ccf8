/**
 * Finding ffmpeg, and installing it through the system package manager only (never a
 * download from anywhere else), after the caller confirmed.
 *
 * @module
 */
import { InstallableFeature, type SystemBackend } from "../../ports/system.ts";
import { DriverError } from "../../ports/errors.ts";

/** Environment variable naming the ffmpeg executable to use instead of the one on PATH. */
export const FFMPEG_ENV = "CUA_DRIVER_FFMPEG";

/** The ffmpeg to record video with: `CUA_DRIVER_FFMPEG` if set, else the first on the program search path. */
export async function findFfmpeg(system: SystemBackend): Promise<string | null> {
  return await system.findExecutable(Deno.env.get(FFMPEG_ENV) || "ffmpeg");
}

/** install_ffmpeg's result. */
export type InstallOutcome =
  | { installed: true; ran: false; path: string }
  | { installed: false; ran: false; manager: string; command: string }
  | { installed: boolean; ran: true; manager: string; command: string; path: string | null; output?: string };

/**
 * Reports ffmpeg, previews the install command, or (with `confirm`) runs it.
 *
 * @throws {DriverError} `unsupported_platform` without a package manager that knows ffmpeg.
 */
export async function installFfmpeg(
  confirm: boolean,
  system: SystemBackend,
  signal: AbortSignal,
): Promise<InstallOutcome> {
  const present = await findFfmpeg(system);
  if (present) return { installed: true, ran: false, path: present };
  const packages = system.packages;
  const plan = packages ? await packages.plan(InstallableFeature.Ffmpeg) : null;
  if (!packages || !plan) {
    throw new DriverError("unsupported_platform", "No supported system package manager was found", {
      managers: [...(packages?.managers ?? [])],
      hint: "install ffmpeg with your system's package manager, or set CUA_DRIVER_FFMPEG to its path",
    });
  }
  const command = plan.runs.join(" ");
  if (!confirm) return { installed: false, ran: false, manager: plan.manager, command };
  const { exitCode, outputTail } = await packages.install(plan, signal);
  const path = await findFfmpeg(system);
  const outcome: InstallOutcome = {
    installed: path !== null,
    ran: true,
    manager: plan.manager,
    command,
    path,
  };
  if (exitCode !== 0 || path === null) outcome.output = outputTail;
  return outcome;
}
