/**
 * Running a child with the network unreachable, to prove that what setup cached is
 * all a program needs. As root (CI, these machines) the child runs in a new network
 * namespace (`unshare --net`: only a loopback that is down, so no route anywhere);
 * otherwise every proxy variable points at a closed local port, so a fetch fails
 * either way. The X server and the session bus are reached through files
 * (`/tmp/.X11-unix`, `unix:path=`), which a network namespace does not cut.
 *
 * @module
 */

/** A command line and environment that run `command` offline, and how the network was cut. */
export interface OfflineCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** `"netns"` (a network namespace with no interfaces up) or `"proxy"` (proxies at a closed port). */
  how: "netns" | "proxy";
}

/** Port 9 (discard) on loopback: nothing listens there on these machines, so a connect is refused. */
const CLOSED_PROXY = "http://127.0.0.1:9";

let netnsWorks: Promise<boolean> | null = null;

/** True when `unshare --net` can start a process here (root, or an unprivileged user namespace). */
function canUnshareNet(): Promise<boolean> {
  netnsWorks ??= new Deno.Command("unshare", { args: ["--net", "true"], stdout: "null", stderr: "null" })
    .output().then((out) => out.success, () => false);
  return netnsWorks;
}

/**
 * Wraps `command args` so it runs with the network unreachable, with `env` plus proxies that
 * lead nowhere (they also cover the namespace case: a fetch fails fast instead of waiting).
 */
export async function offline(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<OfflineCommand> {
  const cut: Record<string, string> = { ...env };
  for (const key of ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"]) {
    cut[key] = CLOSED_PROXY;
  }
  for (const key of ["NO_PROXY", "no_proxy"]) delete cut[key];
  if (Deno.build.os === "linux" && await canUnshareNet()) {
    return { command: "unshare", args: ["--net", "--", command, ...args], env: cut, how: "netns" };
  }
  return { command, args, env: cut, how: "proxy" };
}

/** Runs a probe under the same wrapper and returns whether it reached the npm registry (it must not). */
export async function reachesRegistry(env: Record<string, string>): Promise<boolean> {
  const probe = await offline(Deno.execPath(), [
    "eval",
    "--quiet",
    "await fetch('https://registry.npmjs.org/zod', { signal: AbortSignal.timeout(10_000) }); console.log('reached')",
  ], env);
  const out = await new Deno.Command(probe.command, {
    args: probe.args,
    env: probe.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).output();
  return out.success && new TextDecoder().decode(out.stdout).includes("reached");
}

/** What a command printed, and its exit code. */
export interface CommandOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an {@linkcode offline} command to completion in `cwd`, with exactly its environment. */
export async function runOffline(cmd: OfflineCommand, cwd: string): Promise<CommandOutput> {
  const out = await new Deno.Command(cmd.command, {
    args: cmd.args,
    env: cmd.env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}
