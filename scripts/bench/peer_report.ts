/**
 * The "side by side with peers" section of bench/results.md: one row per path, each a
 * ratio of medians measured in the same run, with the goal it is held to.
 *
 * @module
 */
import type { BrowserBench } from "./browser.ts";
import type { BigTreeSize } from "./big_tree.ts";
import type { ClickBench } from "./click.ts";
import type { CliBench } from "./cli.ts";
import type { PngBench } from "./png.ts";
import type { ValueBench } from "./value.ts";

/** Every peer comparison of one run (each may be missing when not run). */
export interface PeerResults {
  date?: string;
  load?: string;
  browser?: BrowserBench;
  png?: PngBench;
  cli?: CliBench;
  click?: ClickBench;
  value?: ValueBench;
  tree?: BigTreeSize[];
}

/** Median of a sample. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const verdict = (ok: boolean) => (ok ? "yes" : "**no**");

/** The section's markdown (title included). */
export function peerMarkdown(peers: PeerResults): string {
  const rows: string[][] = [];
  const b = peers.browser;
  if (b) {
    const ours = median(b.first_page_ms), all = median(b.get_browser_state_ms);
    const aria = median(b.aria_default_ms), ai = median(b.aria_ai_ms);
    const kept = `${b.interactive_kept}/${b.page_interactive} interactive elements, ${b.refs} refs`;
    rows.push([
      `get_browser_state, ${b.page_elements}-element page (MCP stdio; ${kept})`,
      `${ms(ours)}; CPU ${ms(b.driver_cpu_ms_per_call)} per snapshot and its pages`,
      `playwright-core \`ariaSnapshot()\`: ${ms(aria)} (ai mode ${
        ms(ai)
      }, ${b.aria_ai_refs} refs); Node CPU ${ms(b.aria_cpu_ms_per_call)}`,
      ratio(ours, aria),
      "≤ 1.0x, every interactive element kept",
      verdict(ours <= aria && b.interactive_kept === b.page_interactive),
    ]);
    rows.push([
      "get_browser_state, the same snapshot read to its last ref (4 pages of 150 refs)",
      ms(all),
      `ariaSnapshot(): ${ms(aria)}`,
      ratio(all, aria),
      "",
      "",
    ]);
  }
  const p = peers.png;
  if (p) {
    const ours = median(p.ours_encode_ms), theirs = median(p.libpng_encode_ms);
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
    rows.push([
      `PNG encode, ${p.width}x${p.height} screen (${p.workers} Worker bands; pngcheck ${
        p.pngcheck_ok ? "ok" : "**failed**"
      })`,
      `${ms(ours)}, ${kb(p.ours_bytes)}`,
      `C libpng (level 2, filter Up): ${ms(theirs)}, ${kb(p.libpng_bytes)}`,
      ratio(ours, theirs),
      "≤ 0.6x, output no larger",
      verdict(ours <= 0.6 * theirs && p.ours_bytes <= p.libpng_bytes && p.pngcheck_ok),
    ]);
    rows.push([
      "Screenshot: XShm capture + PNG encode, the same frames",
      `${ms(median(p.ours_ms))}; CPU ${ms(median(p.ours_cpu_ms))} per frame`,
      `C XShmGetImage + libpng: ${ms(median(p.libpng_ms))}; CPU ${ms(median(p.libpng_cpu_ms))}`,
      ratio(median(p.ours_ms), median(p.libpng_ms)),
      "",
      "",
    ]);
  }
  const c = peers.cli;
  if (c) {
    const ours = median(c.source_ms), scrot = median(c.scrot_ms), xdotool = median(c.xdotool_ms);
    const empty = median(c.deno_empty_ms);
    const cpu = c.source_cpu_ms?.length
      ? `; CPU ${ms(median(c.source_cpu_ms))} vs ${ms(median(c.deno_empty_cpu_ms))} (${
        ratio(median(c.source_cpu_ms), median(c.deno_empty_cpu_ms))
      } of the empty script)`
      : "";
    rows.push([
      "One-shot CLI process: `cua-driver get_screen_size` (deno run src/main.ts, as the launcher runs it)",
      `${ms(ours)} (an empty Deno script: ${ms(empty)}, ${ratio(ours, empty)})${cpu}`,
      `scrot (a screenshot to a file): ${ms(scrot)}; \`xdotool getmouselocation\`: ${ms(xdotool)}`,
      `${ratio(ours, scrot)} of scrot, ${ratio(ours, xdotool)} of xdotool`,
      "< 120 ms on an idle machine",
      ours < 120 ? "yes" : "**no**",
    ]);
    /** A row for the same call made another way, against the same empty script and peers. */
    const sameCall = (path: string, time: number, target: string, met: string) =>
      rows.push([
        path,
        `${ms(time)} (the empty Deno script: ${ms(empty)}, ${ratio(time, empty)})`,
        `scrot: ${ms(scrot)}; xdotool: ${ms(xdotool)}`,
        `${ratio(time, scrot)} of scrot, ${ratio(time, xdotool)} of xdotool`,
        target,
        met,
      ]);
    if (c.launcher_ms?.length) {
      sameCall(
        "Same, as typed: `cua-driver get_screen_size` through package.json's command (bin/cua-driver execs that Deno)",
        median(c.launcher_ms),
        "< 120 ms on an idle machine",
        median(c.launcher_ms) < 120 ? "yes" : "**no**",
      );
    }
    if (c.daemon_call_ms?.length) {
      const call = median(c.daemon_call_ms);
      sameCall(
        "Same call through a running daemon: `cua-driver call get_screen_size` (the process loads only the daemon client)",
        call,
        "< 120 ms on an idle machine",
        call < 120 ? "yes" : "**no**",
      );
    }
    if (c.bundle_ms) {
      rows.push([
        "Same, from the single bundled file (dist/cua-driver.js)",
        ms(median(c.bundle_ms)),
        `scrot: ${ms(scrot)}`,
        ratio(median(c.bundle_ms), scrot),
        "",
        "",
      ]);
    }
  }
  const k = peers.click;
  if (k) {
    const reply = median(k.request_to_reply_ms), landed = median(k.request_to_toggled_ms);
    const after = median(k.toggled_to_reply_ms), xtest = median(k.xtest_sent_to_toggled_ms);
    rows.push([
      `Background click on a check box, confirmed by reading its state back (MCP stdio; ${k.confirmed}/${k.request_to_reply_ms.length} confirmed)`,
      `request → reply ${ms(reply)}; request → the app toggles ${ms(landed)}; toggled → reply ${ms(after)}`,
      `python-xlib XTest click: sent → the app toggles ${ms(xtest)}`,
      `${ratio(reply, xtest)} (reply vs XTest landing); ${ratio(landed, xtest)} landing vs landing`,
      "toggled → reply ≤ 3 ms",
      verdict(after <= 3 && k.confirmed === k.request_to_reply_ms.length),
    ]);
  }
  for (const [tool, t] of Object.entries(peers.value ?? {})) {
    const what = tool === "set_value"
      ? "set_value of a text entry (AT-SPI)"
      : "type_text into a text entry (AT-SPI insert)";
    const after = median(t.changed_to_reply_ms);
    rows.push([
      `${what}, confirmed by reading the text back (MCP stdio; ${t.confirmed}/${t.request_to_reply_ms.length} confirmed)`,
      `request → reply ${ms(median(t.request_to_reply_ms))}; request → the app's \`changed\` ${
        ms(median(t.request_to_changed_ms))
      }; changed → reply ${ms(after)}`,
      "none: the goal is the driver's own answer after the app's change",
      "",
      "changed → reply ≤ 3 ms",
      verdict(after <= 3 && t.confirmed === t.request_to_reply_ms.length),
    ]);
  }
  for (const t of peers.tree ?? []) {
    const ours = median(t.driver_ms), walk = median(t.walk_ms);
    const goal = t.nodes >= 5000 ? 200 : 40;
    const perNode = (cpu: number[], nodes: number) => `${(1000 * median(cpu) / nodes).toFixed(0)} µs`;
    rows.push([
      `get_window_state (tree only, MCP stdio), ${t.driver_nodes}-node GTK3 window${
        t.truncated ? " (**truncated**)" : ""
      }`,
      `${ms(ours)}; driver CPU ${ms(median(t.driver_cpu_ms))}; app CPU ${
        perNode(t.driver_app_cpu_ms, t.driver_nodes)
      } per node`,
      `per-node libatspi walk: ${ms(walk)} (${t.walk_nodes} nodes); app CPU ${
        perNode(t.walk_app_cpu_ms, t.walk_nodes)
      } per node`,
      ratio(ours, walk),
      `< ${goal} ms`,
      verdict(ours < goal && !t.truncated),
    ]);
  }
  const table = [
    "| Path | cua-driver (median) | Peer, same run (median) | Ratio | Goal | Met |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
  return `## Side by side with peers

Measured ${peers.date ?? "?"}${peers.load ? ` (load average ${peers.load})` : ""}: each row's two sides ran
in the same run, interleaved call by call where both are long-lived. Produced by \`deno task bench\`, which
installs the peers itself (Debian scrot, xdotool, python3-xlib, python3-pyatspi, pngcheck, gcc/libpng-dev;
npm playwright-core against the Debian Chromium).

${table.join("\n")}
`;
}
