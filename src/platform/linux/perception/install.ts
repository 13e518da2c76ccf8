/**
 * Installing the perception engine through the system package manager, and nothing
 * else: no download from anywhere but the distribution's own repositories.
 *
 * @module
 */
import type { PerceptionInstallOutcome, PerceptionInstallPlan } from "../../types.ts";

/** Debian and Ubuntu packages: the command-line tool, English data and the library the driver opens. */
export const PERCEPTION_PACKAGES = ["tesseract-ocr", "tesseract-ocr-eng", "libtesseract5"] as const;

/** The install command as documented (`apt-get install -y ...`). */
export const PERCEPTION_INSTALL_COMMAND = ["apt-get", "install", "-y", ...PERCEPTION_PACKAGES] as const;

/** Runs one command; returns its exit code and combined output. */
export type CommandRunner = (
  argv: string[],
  signal: AbortSignal,
) => Promise<{ code: number; output: string }>;

const OUTPUT_TAIL_LINES = 20;

/** True when `name` is an executable on PATH (or an absolute path). */
function onPath(name: string): boolean {
  const dirs = name.includes("/")
    ? [""]
    : (Deno.env.get("PATH") ?? "/usr/sbin:/usr/bin:/sbin:/bin").split(":");
  for (const dir of dirs) {
    try {
      const info = Deno.statSync(dir ? `${dir}/${name}` : name);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return true;
    } catch {
      // Not here.
    }
  }
  return false;
}

/** The plan on this machine: apt-get as root or through sudo; null without apt-get. */
export function perceptionInstallPlan(
  probe: { onPath(name: string): boolean; uid(): number | null } = { onPath, uid: () => Deno.uid() },
): PerceptionInstallPlan | null {
  if (!probe.onPath("apt-get")) return null;
  const privilege = probe.uid() === 0 ? "root" : probe.onPath("sudo") ? "sudo" : "unavailable";
  return { manager: "apt-get", command: [...PERCEPTION_INSTALL_COMMAND], privilege };
}

/** Runs a command with a non-interactive apt, output merged. */
export const runCommand: CommandRunner = async (argv, signal) => {
  const output = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: { DEBIAN_FRONTEND: "noninteractive" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, output: decoder.decode(output.stdout) + decoder.decode(output.stderr) };
};

/**
 * Runs the plan: `apt-get install -y ...` (through `sudo -n` when not root, so it never
 * waits for a password), and once more after `apt-get update` when the package lists do
 * not know the packages yet.
 */
export async function runPerceptionInstall(
  plan: PerceptionInstallPlan,
  signal: AbortSignal,
  run: CommandRunner = runCommand,
): Promise<PerceptionInstallOutcome> {
  const elevate = (argv: string[]) => plan.privilege === "sudo" ? ["sudo", "-n", ...argv] : argv;
  const ran: string[][] = [];
  const step = async (argv: string[]) => {
    const full = elevate(argv);
    ran.push(full);
    return await run(full, signal);
  };
  let result = await step(plan.command);
  if (result.code !== 0 && /Unable to locate package|has no installation candidate/i.test(result.output)) {
    const update = await step([plan.manager, "update"]);
    result = update.code === 0 ? await step(plan.command) : update;
  }
  return {
    ran,
    exitCode: result.code,
    outputTail: result.output.trimEnd().split("\n").slice(-OUTPUT_TAIL_LINES).join("\n"),
  };
}
