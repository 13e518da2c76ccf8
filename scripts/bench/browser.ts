/**
 * Browser snapshot benchmark: get_browser_state (dom_refs_v1) through the driver's MCP
 * stdio server against playwright-core's `ariaSnapshot()` (default and "ai" modes) of the
 * same page in the same Chromium, call by call in turn (the machine's load hits both alike). Every snapshot of ours must keep all
 * of the page's interactive elements.
 *
 * @module
 */
import { withDesktop } from "./desktop.ts";
import { benchPage, ELEMENTS, INTERACTIVE } from "./browser_page.ts";
import { type McpDriver, openMcp } from "./mcp_client.ts";
import { median } from "./peer_report.ts";
import { ensurePlaywrightCore } from "./peers.ts";

const peerScript = new URL("./aria_peer.mjs", import.meta.url).pathname;

/** What the browser benchmark measured. */
export interface BrowserBench {
  page_elements: number;
  page_interactive: number;
  refs: number;
  interactive_kept: number;
  /** Snapshot and every continuation page: all refs. */
  get_browser_state_ms: number[];
  /** The snapshot call alone (its first page of refs). */
  first_page_ms: number[];
  driver_cpu_ms_per_call: number;
  aria_default_ms: number[];
  aria_ai_ms: number[];
  aria_cpu_ms_per_call: number;
  aria_ai_refs: number;
}

/** One snapshot through MCP followed by its continuation pages until complete. */
async function ourSnapshot(mcp: McpDriver, at: Record<string, unknown>) {
  type Page = { refs: { dom_id?: string }[]; snapshot: { continuation: string | null } };
  const cpu = await mcp.cpuMs();
  const started = performance.now();
  let page = (await mcp.call("get_browser_state", at)).structured as Page;
  const firstMs = performance.now() - started;
  const refs = [...page.refs];
  while (page.snapshot.continuation) {
    page = (await mcp.call("get_browser_state", { ...at, continuation: page.snapshot.continuation }))
      .structured as Page;
    refs.push(...page.refs);
  }
  const allMs = performance.now() - started;
  return { firstMs, allMs, refs, cpuMs: (await mcp.cpuMs()) - cpu };
}

/** playwright-core's ariaSnapshot in a Node process, one snapshot per request. */
async function openPeer(playwright: string, endpoint: string, url: string) {
  const child = new Deno.Command("node", {
    args: [peerScript, playwright, endpoint, url],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async () => {
    while (!buffer.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the playwright-core peer exited");
      buffer += value;
    }
    const line = buffer.slice(0, buffer.indexOf("\n"));
    buffer = buffer.slice(buffer.indexOf("\n") + 1);
    return JSON.parse(line);
  };
  await next(); // ready
  return {
    async snapshot(mode: "default" | "ai"): Promise<{ ms: number; cpu_ms: number; refs: number }> {
      await writer.write(new TextEncoder().encode(mode + "\n"));
      return await next();
    },
    async close() {
      await writer.close();
      await child.status;
      lines.releaseLock();
    },
  };
}

/** Runs the comparison, interleaving the two sides call by call; `env` must reach the desktop. */
export async function benchBrowser(env: Record<string, string>, runs: number): Promise<BrowserBench> {
  const playwright = await ensurePlaywrightCore();
  const html = benchPage();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/bench`;
  const mcp = await openMcp(env);
  try {
    const prepared =
      (await mcp.call("browser_prepare", { allow_launch: true, profile: { mode: "isolated_new" } }))
        .structured as { pid: number; window_id: number; endpoint: { port: number } };
    const bound = (await mcp.call("get_browser_state", { pid: prepared.pid, window_id: prepared.window_id }))
      .structured as { target_id: string; tabs: { tab_id: string }[] };
    const at = { target_id: bound.target_id, tab_id: bound.tabs[0].tab_id };
    await mcp.call("browser_navigate", { ...at, url });
    const peer = await openPeer(playwright, `http://127.0.0.1:${prepared.endpoint.port}`, url);
    try {
      // Warm-up, then rounds of: ours, theirs (default), theirs (ai).
      await ourSnapshot(mcp, at);
      await peer.snapshot("default");
      await peer.snapshot("ai");
      const all: number[] = [], first: number[] = [], cpu: number[] = [];
      const aria: number[] = [], ariaAi: number[] = [], ariaCpu: number[] = [];
      let refs: { dom_id?: string }[] = [];
      let aiRefs = 0;
      for (let i = 0; i < runs; i++) {
        const mine = await ourSnapshot(mcp, at);
        all.push(mine.allMs);
        first.push(mine.firstMs);
        cpu.push(mine.cpuMs);
        refs = mine.refs;
        const theirs = await peer.snapshot("default");
        aria.push(theirs.ms);
        ariaCpu.push(theirs.cpu_ms);
        const ai = await peer.snapshot("ai");
        ariaAi.push(ai.ms);
        aiRefs = ai.refs;
      }
      const ids = new Set(refs.map((r) => r.dom_id));
      let kept = 0;
      for (let i = 0; i < INTERACTIVE; i++) if (ids.has(`i${i}`)) kept++;
      return {
        page_elements: ELEMENTS,
        page_interactive: INTERACTIVE,
        refs: refs.length,
        interactive_kept: kept,
        get_browser_state_ms: all,
        first_page_ms: first,
        driver_cpu_ms_per_call: median(cpu),
        aria_default_ms: aria,
        aria_ai_ms: ariaAi,
        aria_cpu_ms_per_call: median(ariaCpu),
        aria_ai_refs: aiRefs,
      };
    } finally {
      await peer.close();
    }
  } finally {
    await mcp.close();
    await server.shutdown();
  }
}

if (import.meta.main) {
  const runs = Number(Deno.args[0]) || 15;
  const result = await withDesktop((env) => benchBrowser(env, runs));
  console.log(JSON.stringify(
    {
      ...result,
      median_ours: median(result.get_browser_state_ms),
      median_first_page: median(result.first_page_ms),
      median_aria: median(result.aria_default_ms),
      median_aria_ai: median(result.aria_ai_ms),
    },
    null,
    1,
  ));
}
