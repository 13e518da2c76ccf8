/**
 * Big-tree benchmark: get_window_state (tree only, MCP stdio) of a real GTK3 window with
 * about 1,000 and 5,000 accessible objects (scripts/bench/big_tree_app.py), against a
 * per-node libatspi walk of the same app (scripts/bench/atspi_walk.ts), in alternating
 * rounds. Also the app's own CPU time per snapshot (what serving AT-SPI costs it), per node.
 *
 * @module
 */
import { CACHED_ONLY } from "../deno_child.ts";
import { openMcp, processCpuMs } from "./mcp_client.ts";

const root = new URL("../..", import.meta.url).pathname;

/** One window size's measurements, ms per snapshot. */
export interface BigTreeSize {
  nodes: number;
  /** Nodes get_window_state returned (total_element_count). */
  driver_nodes: number;
  driver_ms: number[];
  /** The app's CPU time while answering each get_window_state. */
  driver_app_cpu_ms: number[];
  /** The driver's own CPU time per get_window_state. */
  driver_cpu_ms: number[];
  walk_nodes: number;
  walk_ms: number[];
  walk_app_cpu_ms: number[];
  truncated: boolean;
}

/** Runs `rounds` alternating rounds at each size. */
export async function benchBigTree(
  env: Record<string, string>,
  rounds: number,
  sizes: number[] = [1000, 5000],
): Promise<BigTreeSize[]> {
  const mcp = await openMcp(env);
  const out: BigTreeSize[] = [];
  try {
    for (const nodes of sizes) {
      const app = new Deno.Command("/usr/bin/python3", {
        args: [`${root}scripts/bench/big_tree_app.py`, "--nodes", String(nodes)],
        env: { ...env, NO_AT_BRIDGE: "0" },
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const reader = app.stdout.pipeThrough(new TextDecoderStream()).getReader();
      try {
        let line = "";
        while (!line.includes("\n")) {
          const { value, done } = await reader.read();
          if (done) throw new Error("the big-tree app exited before its window mapped");
          line += value;
        }
        const { pid, xid } = JSON.parse(line) as { pid: number; xid: number };
        const size: BigTreeSize = {
          nodes,
          driver_nodes: 0,
          driver_ms: [],
          driver_app_cpu_ms: [],
          driver_cpu_ms: [],
          walk_nodes: 0,
          walk_ms: [],
          walk_app_cpu_ms: [],
          truncated: false,
        };
        const snapshot = () =>
          mcp.call("get_window_state", {
            pid,
            window_id: xid,
            include_screenshot: false,
            max_elements: 20000,
          });
        await snapshot(); // warm-up: the app builds its accessible objects on first use
        for (let round = 0; round < rounds; round++) {
          let cpu = await processCpuMs(pid);
          const own = await mcp.cpuMs();
          const { ms, structured } = await snapshot();
          size.driver_app_cpu_ms.push(await processCpuMs(pid) - cpu);
          size.driver_cpu_ms.push(await mcp.cpuMs() - own);
          size.driver_ms.push(ms);
          size.driver_nodes = structured.total_element_count as number;
          size.truncated ||= structured.truncated as boolean;
          cpu = await processCpuMs(pid);
          const walk = await new Deno.Command(Deno.execPath(), {
            args: ["run", "-A", ...CACHED_ONLY, `${root}scripts/bench/atspi_walk.ts`, String(pid), "1"],
            env,
            stderr: "inherit",
          }).output();
          size.walk_app_cpu_ms.push(await processCpuMs(pid) - cpu);
          const walked = JSON.parse(new TextDecoder().decode(walk.stdout)) as { nodes: number; ms: number[] };
          size.walk_ms.push(walked.ms[0]);
          size.walk_nodes = walked.nodes;
        }
        out.push(size);
      } finally {
        app.kill();
        await app.status;
        reader.releaseLock();
      }
    }
    return out;
  } finally {
    await mcp.close();
  }
}

if (import.meta.main) {
  const { withDesktop } = await import("./desktop.ts");
  const { median } = await import("./peer_report.ts");
  const sizes = await withDesktop((env) => benchBigTree(env, Number(Deno.args[0]) || 5));
  for (const s of sizes) {
    console.log(
      `${s.driver_nodes} nodes: get_window_state ${median(s.driver_ms).toFixed(1)} ms (app CPU ${
        median(s.driver_app_cpu_ms).toFixed(1)
      } ms, driver CPU ${median(s.driver_cpu_ms).toFixed(1)} ms) | per-node walk ${
        median(s.walk_ms).toFixed(1)
      } ms of ${s.walk_nodes} nodes (app CPU ${median(s.walk_app_cpu_ms).toFixed(1)} ms)`,
    );
  }
}
