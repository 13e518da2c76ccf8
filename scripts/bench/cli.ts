/**
 * One-shot CLI benchmark: `cua-driver get_screen_size` as a fresh process, against scrot
 * (a screenshot to a file) and `xdotool getmouselocation`, in rounds that run each command
 * once in turn (so the machine's load hits all alike), plus an empty Deno script for the
 * runtime's own start-up. The driver runs from source as bin/cua-driver runs it (`deno run
 * --unstable-lazy-dynamic-imports src/main.ts`: one module per file, as `deno compile` embeds
 * them), through that launcher itself (the command npm installs), and as the single bundled file
 * (dist/cua-driver.js); and `cua-driver call get_screen_size`, the same call through a running
 * daemon (`serve`), whose process loads only the daemon client.
 *
 * @module
 */
import { CACHED_ONLY, LAZY_IMPORTS, V8_FLAGS } from "../deno_child.ts";
import { median } from "./peer_report.ts";
import { startDaemon } from "../../tests/_helpers/daemon.ts";

const root = new URL("../..", import.meta.url).pathname;

/** What the CLI benchmark measured (wall time per process, ms). */
export interface CliBench {
  source_ms: number[];
  /** The same call as a user types it: bin/cua-driver (package.json's command), which execs that Deno. */
  launcher_ms: number[];
  /** `cua-driver call get_screen_size` against a running daemon. */
  daemon_call_ms: number[];
  bundle_ms: number[] | null;
  deno_empty_ms: number[];
  scrot_ms: number[];
  xdotool_ms: number[];
  /** CPU time (user + sys) of the driver's process and of the empty script's, ms: steadier than wall under load. */
  source_cpu_ms: number[];
  deno_empty_cpu_ms: number[];
}

async function timed(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(command, { args, env, stdout: "null", stderr: "piped" }).output();
  const ms = performance.now() - started;
  if (!out.success) {
    throw new Error(`${command} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

/**
 * CPU time (user + sys, ms) of one run of `command`: a shell runs it, then prints its own
 * /proc stat, whose cutime/cstime fields hold the waited child's (clock ticks of 10 ms).
 */
async function cpuTimed(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const out = await new Deno.Command("sh", {
    args: ["-c", '"$@" >/dev/null || exit $?; cat /proc/$$/stat', "sh", command, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`${command} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const stat = new TextDecoder().decode(out.stdout);
  // Fields after "(comm) ": state is field 3, cutime field 16, cstime field 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10;
}

/** Deno's arguments to run the driver from source as bin/cua-driver runs it. */
function driver(...args: string[]): string[] {
  return ["run", "-A", ...LAZY_IMPORTS, ...V8_FLAGS, ...CACHED_ONLY, `${root}src/main.ts`, ...args];
}

/** Runs `rounds` rounds; `bundle` is the bundled driver's path, when it was built. */
export async function benchCli(
  env: Record<string, string>,
  rounds: number,
  bundle: string | null,
): Promise<CliBench> {
  const deno = Deno.execPath();
  const shot = await Deno.makeTempFile({ suffix: ".png" });
  const empty = await Deno.makeTempFile({ suffix: ".js" });
  const childEnv = { ...env, DENO_NO_PACKAGE_JSON: "1" };
  const daemon = await startDaemon([], childEnv);
  const result: CliBench = {
    source_ms: [],
    launcher_ms: [],
    daemon_call_ms: [],
    bundle_ms: bundle ? [] : null,
    deno_empty_ms: [],
    scrot_ms: [],
    xdotool_ms: [],
    source_cpu_ms: [],
    deno_empty_cpu_ms: [],
  };
  try {
    const runs: [number[], string, string[]][] = [
      [result.source_ms, deno, driver("get_screen_size")],
      [result.launcher_ms, `${root}bin/cua-driver`, ["get_screen_size"]],
      [result.daemon_call_ms, deno, driver("call", "get_screen_size", "--socket", daemon.socket)],
      ...(bundle
        ? [
          [result.bundle_ms!, deno, ["run", "-A", bundle, "get_screen_size"]] as [number[], string, string[]],
        ]
        : []),
      [result.deno_empty_ms, deno, ["run", "-A", empty]],
      [result.scrot_ms, "scrot", ["-o", shot]],
      [result.xdotool_ms, "xdotool", ["getmouselocation"]],
    ];
    for (const [, command, args] of runs) await timed(command, args, childEnv); // warm-up (caches)
    const sourceRun = runs.find(([sink]) => sink === result.source_ms)!;
    const emptyRun = runs.find(([sink]) => sink === result.deno_empty_ms)!;
    for (let round = 0; round < rounds; round++) {
      // Each round starts one command later: none always runs right after the same one (a process's
      // exit still frees memory while the next one starts).
      for (let i = 0; i < runs.length; i++) {
        const [sink, command, args] = runs[(i + round) % runs.length];
        sink.push(await timed(command, args, childEnv));
      }
      result.source_cpu_ms.push(await cpuTimed(sourceRun[1], sourceRun[2], childEnv));
      result.deno_empty_cpu_ms.push(await cpuTimed(emptyRun[1], emptyRun[2], childEnv));
    }
    return result;
  } finally {
    await daemon.stop();
    await Deno.remove(shot).catch(() => {});
    await Deno.remove(empty).catch(() => {});
  }
}

if (import.meta.main) {
  const { withDesktop } = await import("./desktop.ts");
  const { bundle } = await import("../bundle.ts");
  const built = await bundle();
  const result = await withDesktop((env) => benchCli(env, Number(Deno.args[0]) || 9, built));
  const line = (label: string, values: number[] | null) =>
    values && console.log(label.padEnd(16), median(values).toFixed(0).padStart(6), "ms");
  line("source", result.source_ms);
  line("launcher", result.launcher_ms);
  line("daemon call", result.daemon_call_ms);
  line("source cpu", result.source_cpu_ms);
  line("empty cpu", result.deno_empty_cpu_ms);
  line("bundle", result.bundle_ms);
  line("deno empty", result.deno_empty_ms);
  line("scrot", result.scrot_ms);
  line("xdotool", result.xdotool_ms);
}
