/**
 * Running the driver the way users do: `deno run -A src/main.ts ...` as a
 * subprocess on the shared test desktop, from the Deno cache only.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { CACHED_ONLY, denoChildEnv, LAZY_IMPORTS, V8_FLAGS } from "../../scripts/deno_child.ts";
import { desktopEnv } from "./desktop_env.ts";

/** The entry point. */
export const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/**
 * What any Deno subprocess of the tests needs in a cleared environment and no desktop:
 * PATH, HOME, the network settings ({@linkcode denoChildEnv}) and the Deno cache by path,
 * so a child given another HOME (a user desktop's) still finds it.
 */
export function denoEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = Deno.env.get("HOME") ?? "/root";
  const cache = Deno.env.get("DENO_DIR") || `${Deno.env.get("XDG_CACHE_HOME") || `${home}/.cache`}/deno`;
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    DENO_DIR: cache,
    ...denoChildEnv(),
    ...extra,
  };
}

/**
 * Environment for a driver subprocess (started with `clearEnv`): the desktop, a private
 * config dir, PATH and HOME, and the Deno cache and network settings ({@linkcode denoEnv}).
 */
export function driverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const configDir = Deno.makeTempDirSync({ prefix: "cua-test-config-" });
  return denoEnv({ CUA_DRIVER_CONFIG_DIR: configDir, ...desktopEnv(), ...extra });
}

/** Arguments to run the driver with Deno as the launcher does, from the cache that scripts/setup.sh filled. */
export function driverArgs(...args: string[]): string[] {
  return ["run", "-A", "--quiet", ...LAZY_IMPORTS, ...V8_FLAGS, ...CACHED_ONLY, MAIN, ...args];
}

/** Runs one CLI command to completion. */
export async function runDriver(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: driverArgs(...args),
    env: options.env ?? driverEnv(),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}
