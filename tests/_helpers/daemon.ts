/**
 * `cua-driver serve` in a subprocess on a fresh socket, for tests of the daemon and its clients.
 *
 * @module
 */
import { driverArgs, driverEnv } from "./driver.ts";

/** Starts `serve` on a fresh socket and waits until it answers. */
export async function startDaemon(extra: string[] = [], env: Record<string, string> = driverEnv()) {
  const dir = await Deno.makeTempDir({ prefix: "cua-daemon-" });
  const socket = `${dir}/d.sock`;
  const child = new Deno.Command(Deno.execPath(), {
    args: driverArgs("serve", "--desktop", "system", "--socket", socket, ...extra),
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  while (!log.includes("listening")) {
    const { value, done } = await stderr.read();
    if (done) throw new Error(`serve exited: ${log}`);
    log += value;
  }
  (async () => {
    while (!(await stderr.read()).done) { /* drain */ }
  })();
  return {
    socket,
    env,
    /** What serve printed up to its "listening" line. */
    log,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
