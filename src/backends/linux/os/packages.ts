/**
 * Installing through the system package manager, and nothing else: no download from
 * anywhere but the distribution's own repositories. The one installer of the Linux back
 * end (install_ffmpeg, install_extension).
 *
 * @module
 */
import { findExecutableSync } from "../../posix/find_executable.ts";
import type {
  InstallableFeature,
  PackageInstaller,
  PackageInstallOutcome,
  PackageInstallPlan,
} from "../../../ports/system.ts";

/** Package managers, in the order they are looked for, and the install command of each. */
const MANAGERS: Readonly<Record<string, (packages: readonly string[]) => string[]>> = {
  "apt-get": (packages) => ["apt-get", "install", "-y", ...packages],
  "dnf": (packages) => ["dnf", "install", "-y", ...packages],
  "pacman": (packages) => ["pacman", "-S", "--noconfirm", ...packages],
  "zypper": (packages) => ["zypper", "--non-interactive", "install", ...packages],
};

/** The packages of each feature per manager; a manager not listed cannot install the feature. */
const PACKAGES: Readonly<Record<InstallableFeature, Readonly<Record<string, readonly string[]>>>> = {
  ffmpeg: { "apt-get": ["ffmpeg"], dnf: ["ffmpeg"], pacman: ["ffmpeg"], zypper: ["ffmpeg"] },
  // The command-line tool, English data and the library the driver opens (Debian and Ubuntu names).
  text_recognition: { "apt-get": ["tesseract-ocr", "tesseract-ocr-eng", "libtesseract5"] },
};

/** Runs one command; returns its exit code and combined output. */
export type CommandRunner = (
  argv: string[],
  signal: AbortSignal,
) => Promise<{ code: number; output: string }>;

/** What planning needs to know about the machine; tests script it. */
export interface PlanProbe {
  onPath(name: string): boolean;
  uid(): number | null;
}

const OUTPUT_TAIL_LINES = 20;

const systemProbe: PlanProbe = { onPath: (name) => findExecutableSync(name) !== null, uid: () => Deno.uid() };

/** Runs a command with a non-interactive apt, output merged. */
export const runCommand: CommandRunner = async (argv, signal) => {
  const { posixRun } = await import("../../posix/process.ts");
  const out = await posixRun(argv, { env: { DEBIAN_FRONTEND: "noninteractive" }, signal });
  return { code: out.code, output: out.stdout + out.stderr };
};

/**
 * The plan that installs `feature`: the first package manager on PATH that knows it, as
 * root or through `sudo -n` (never a password prompt); null when none knows it.
 */
export function linuxInstallPlan(
  feature: InstallableFeature,
  probe: PlanProbe = systemProbe,
): PackageInstallPlan | null {
  for (const [manager, packages] of Object.entries(PACKAGES[feature])) {
    if (!probe.onPath(manager)) continue;
    const privilege = probe.uid() === 0 ? "root" : probe.onPath("sudo") ? "sudo" : "unavailable";
    const command = MANAGERS[manager](packages);
    return { manager, command, privilege, runs: privilege === "root" ? command : ["sudo", "-n", ...command] };
  }
  return null;
}

/** The command exactly as a plan runs it: through `sudo -n` unless already root. */
export function elevated(plan: PackageInstallPlan, argv: readonly string[] = plan.command): string[] {
  return plan.privilege === "root" ? [...argv] : ["sudo", "-n", ...argv];
}

/**
 * Runs a plan, and once more after refreshing the package lists when they do not know
 * the packages yet (`apt-get update`).
 */
export async function runInstall(
  plan: PackageInstallPlan,
  signal: AbortSignal,
  run: CommandRunner = runCommand,
): Promise<PackageInstallOutcome> {
  const ran: string[][] = [];
  const step = async (argv: string[]) => {
    const full = elevated(plan, argv);
    ran.push(full);
    return await run(full, signal);
  };
  let result = await step(plan.command);
  if (
    plan.manager === "apt-get" && result.code !== 0 &&
    /Unable to locate package|has no installation candidate/i.test(result.output)
  ) {
    const update = await step([plan.manager, "update"]);
    result = update.code === 0 ? await step(plan.command) : update;
  }
  return {
    ran,
    exitCode: result.code,
    outputTail: result.output.trimEnd().split("\n").slice(-OUTPUT_TAIL_LINES).join("\n"),
  };
}

/** The Linux {@linkcode PackageInstaller}. */
export const linuxPackages: PackageInstaller = {
  plan: (feature) => Promise.resolve(linuxInstallPlan(feature)),
  install: (plan, signal) => runInstall(plan, signal),
  managers: Object.keys(MANAGERS),
};
