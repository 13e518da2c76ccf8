/**
 * Installing the perception engine: the text_recognition packages through the system
 * package manager (see `../packages.ts`), and nothing else.
 *
 * @module
 */
import { type CommandRunner, linuxInstallPlan, type PlanProbe, runInstall } from "../os/packages.ts";
import type { PerceptionInstallOutcome, PerceptionInstallPlan } from "../../../ports/perception.ts";

export type { CommandRunner } from "../os/packages.ts";

/** The plan on this machine: apt-get as root or through sudo; null without apt-get. */
export function perceptionInstallPlan(probe?: PlanProbe): PerceptionInstallPlan | null {
  return linuxInstallPlan("text_recognition", probe);
}

/**
 * Runs the plan: `apt-get install -y ...` (through `sudo -n` when not root, so it never
 * waits for a password), and once more after `apt-get update` when the package lists do
 * not know the packages yet.
 */
export function runPerceptionInstall(
  plan: PerceptionInstallPlan,
  signal: AbortSignal,
  run?: CommandRunner,
): Promise<PerceptionInstallOutcome> {
  return runInstall(plan, signal, run);
}
