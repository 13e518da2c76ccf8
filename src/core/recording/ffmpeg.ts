/**
 * Finding ffmpeg, and installing it through the system package manager only (never a
 * download from anywhere else), after the caller confirmed.
 *
 * @module
 */
import { join } from "node:path";
import { DriverError } from "../errors.ts";

/** Environment variable naming the ffmpeg executable to use instead of the one on PATH. */
export const FFMPEG_ENV = "CUA_DRIVER_FFMPEG";

/** The path of an executable file named `name` on PATH, or null. */
export async function findOnPath(name: string, path = Deno.env.get("PATH") ?? ""): Promise<string | null> {
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** The ffmpeg to record video with: `CUA_DRIVER_FFMPEG` if set, else the first on PATH. */
export async function findFfmpeg(): Promise<string | null> {
  const override = Deno.env.get(FFMPEG_ENV);
  if (override) {
    try {
      return (await Deno.stat(override)).isFile ? override : null;
    } catch {
      return null;
    }
  }
  return await findOnPath("ffmpeg");
}

/** A system package manager that can install ffmpeg. */
export interface PackageManager {
  /** The manager's program name, as install_ffmpeg reports it. */
  name: string;
  /** The install command line (without sudo). */
  argv: string[];
}

/** Known managers, in the order they are looked for. */
export const PACKAGE_MANAGERS: readonly PackageManager[] = [
  { name: "apt-get", argv: ["apt-get", "install", "-y", "ffmpeg"] },
  { name: "dnf", argv: ["dnf", "install", "-y", "ffmpeg"] },
  { name: "pacman", argv: ["pacman", "-S", "--noconfirm", "ffmpeg"] },
  { name: "zypper", argv: ["zypper", "--non-interactive", "install", "ffmpeg"] },
];

/** What installFfmpeg needs from the system; tests inject their own. */
export interface InstallHost {
  /** Where ffmpeg is now, or null. */
  findFfmpeg(): Promise<string | null>;
  /** The path of a program on PATH, or null. */
  which(name: string): Promise<string | null>;
  /** True when running as root (no sudo needed). */
  isRoot(): boolean;
  /** Runs a command to completion; returns its exit code and the end of its output. */
  run(argv: string[]): Promise<{ code: number; output: string }>;
}

/** install_ffmpeg's result. */
export type InstallOutcome =
  | { installed: true; ran: false; path: string }
  | { installed: false; ran: false; manager: string; command: string }
  | { installed: boolean; ran: true; manager: string; command: string; path: string | null; output?: string };

/**
 * Reports ffmpeg, previews the install command, or (with `confirm`) runs it.
 *
 * @throws {DriverError} `unsupported_platform` off Linux or without a known package manager.
 */
export async function installFfmpeg(confirm: boolean, host: InstallHost): Promise<InstallOutcome> {
  const present = await host.findFfmpeg();
  if (present) return { installed: true, ran: false, path: present };
  let manager: PackageManager | null = null;
  for (const candidate of PACKAGE_MANAGERS) {
    if (await host.which(candidate.name)) {
      manager = candidate;
      break;
    }
  }
  if (!manager) {
    throw new DriverError("unsupported_platform", "No supported system package manager was found", {
      managers: PACKAGE_MANAGERS.map((m) => m.name),
      hint: "install ffmpeg with your system's package manager, or set CUA_DRIVER_FFMPEG to its path",
    });
  }
  // Non-interactive sudo: a password prompt would hang an agent's call, so it fails instead.
  const argv = host.isRoot() ? manager.argv : ["sudo", "-n", ...manager.argv];
  const command = argv.join(" ");
  if (!confirm) return { installed: false, ran: false, manager: manager.name, command };
  const { code, output } = await host.run(argv);
  const path = await host.findFfmpeg();
  const outcome: InstallOutcome = {
    installed: path !== null,
    ran: true,
    manager: manager.name,
    command,
    path,
  };
  if (code !== 0 || path === null) outcome.output = output;
  return outcome;
}

/** The real system: PATH lookups, the effective uid, and subprocesses with their output kept. */
export const systemInstallHost: InstallHost = {
  findFfmpeg,
  which: (name) => findOnPath(name),
  isRoot: () => Deno.uid() === 0,
  async run(argv) {
    try {
      const out = await new Deno.Command(argv[0], {
        args: argv.slice(1),
        env: { DEBIAN_FRONTEND: "noninteractive" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      return { code: out.code, output: text.slice(-4000) };
    } catch (error) {
      return { code: -1, output: (error as Error).message };
    }
  },
};
