/**
 * What the launch escape tests share: the witnesses an attack would disturb (a marker file a
 * command would create, a foreign process a killer would end) and the loop that sends each
 * attack through each transport and checks that it was refused and disturbed nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { AllTransports, Transport } from "../_helpers/all_transports.ts";
import { isAlive } from "../../src/backends/linux/os/proc_fs.ts";

/** Codes that mean "refused before anything ran". */
export const REFUSALS = new Set([
  "launch_refused",
  "bounded_resource_outside_manifest",
  "app_not_found",
  "invalid_arguments",
]);

/** One attack: a label and launch_app's arguments. */
export interface Attack {
  label: string;
  args: Record<string, unknown>;
}

/** What an attack that ran would leave behind. */
export interface Witness {
  /** A file a command would create. */
  marker: string;
  /** A foreign process a killer would end. */
  victim: number;
}

/** True when something exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** The daemon CLI, as one more transport (a process per call, so only for a few attacks). */
export function cliTransport(all: AllTransports): Transport {
  return { name: "daemon", call: (tool, args) => all.cli(tool, args) };
}

/** Runs every attack through every transport and checks nothing happened; returns the count. */
export async function expectAllRefused(
  transports: readonly Transport[],
  attacks: readonly Attack[],
  witness: Witness,
  tool = "launch_app",
): Promise<number> {
  let tried = 0;
  for (const transport of transports) {
    for (const attack of attacks) {
      const result = await transport.call(tool, attack.args);
      const where = `${transport.name}: ${attack.label}: ${JSON.stringify(result.structured)}`;
      assert.equal(result.isError, true, where);
      assert.ok(REFUSALS.has(String(result.structured.code)), where);
      assert.equal(await exists(witness.marker), false, `${where}: the command ran`);
      assert.equal(await isAlive(witness.victim), true, `${where}: the foreign process was killed`);
      tried++;
    }
  }
  return tried;
}

/** Runs `fn` beside a foreign process whose command line is unique to this run (for pkill -f). */
export async function withWitness(
  fn: (dir: string, marker: string, victim: number, pattern: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cua-escape-" });
  const seconds = `600.${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  const victim = new Deno.Command("/bin/sleep", { args: [seconds] }).spawn();
  try {
    await fn(dir, `${dir}/shell-ran`, victim.pid, `sleep ${seconds}`);
  } finally {
    // An attack that got through has killed it already; the test has failed on that.
    try {
      victim.kill("SIGKILL");
    } catch {
      // already gone
    }
    await victim.status;
    await Deno.remove(dir, { recursive: true });
  }
}
