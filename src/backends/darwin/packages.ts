/**
 * Installing through Homebrew, the package manager macOS users have; nothing is
 * downloaded from anywhere else. Homebrew installs as the user and refuses to run as
 * root, so a plan runs its command as is (privilege "root" in the plan's terms: no
 * `sudo`), and is "unavailable" when the driver itself runs as root.
 *
 * @module
 */
import { findExecutableSync } from "../posix/find_executable.ts";
import { posixRun } from "../posix/process.ts";
import type { InstallableFeature, PackageInstaller, PackageInstallPlan } from "../../ports/system.ts";

/** Homebrew formulae of each feature (tesseract brings its English data). */
const FORMULAE: Readonly<Record<InstallableFeature, readonly string[]>> = {
  ffmpeg: ["ffmpeg"],
  text_recognition: ["tesseract"],
};

/** Where Homebrew lives: Apple silicon, then Intel. */
const BREW_PATH = "/opt/homebrew/bin:/usr/local/bin";

/** What planning needs to know about the machine; tests script it. */
export interface BrewProbe {
  brew(): string | null;
  uid(): number | null;
}

const systemProbe: BrewProbe = {
  brew: () => findExecutableSync("brew") ?? findExecutableSync("brew", BREW_PATH),
  uid: () => Deno.uid(),
};

/** The Homebrew plan that installs `feature`; null without Homebrew. */
export function brewInstallPlan(
  feature: InstallableFeature,
  probe: BrewProbe = systemProbe,
): PackageInstallPlan | null {
  const brew = probe.brew();
  if (!brew) return null;
  const command = [brew, "install", ...FORMULAE[feature]];
  // Homebrew installs as the user and refuses to run as root: nothing is elevated.
  return { manager: "brew", command, privilege: probe.uid() === 0 ? "unavailable" : "root", runs: command };
}

/** The macOS {@linkcode PackageInstaller}. */
export const darwinPackages: PackageInstaller = {
  plan: (feature) => Promise.resolve(brewInstallPlan(feature)),
  async install(plan, signal) {
    const out = await posixRun(plan.command, { env: { HOMEBREW_NO_AUTO_UPDATE: "1" }, signal });
    const output = out.stdout + out.stderr;
    return {
      ran: [plan.command],
      exitCode: out.code,
      outputTail: output.trimEnd().split("\n").slice(-20).join("\n"),
    };
  },
  managers: ["brew"],
};
