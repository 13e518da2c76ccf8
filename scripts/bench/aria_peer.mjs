// The browser benchmark's peer: playwright-core's ariaSnapshot() of one page of a running
// Chromium (connected over CDP), run by Node as its users run it. It serves one snapshot per
// stdin line ("default" or "ai") and answers each with a JSON line
// {ms, cpu_ms, refs, chars}, so that the benchmark can interleave it with the driver's calls.
//
//     node scripts/bench/aria_peer.mjs <playwright-core dir> <cdp http url> <page url>
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const [dir, endpoint, url] = process.argv.slice(2);
const { chromium } = createRequire(`${dir}/`)("playwright-core");
const browser = await chromium.connectOverCDP(endpoint);
const page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url() === url);
if (!page) throw new Error(`no page at ${url}`);
console.log(JSON.stringify({ ready: true }));
for await (const line of createInterface({ input: process.stdin })) {
  const mode = line.trim();
  if (mode !== "default" && mode !== "ai") break;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const text = await page.ariaSnapshot({ mode });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({
    ms,
    cpu_ms: (used.user + used.system) / 1000,
    refs: (text.match(/\[ref=/g) ?? []).length,
    chars: text.length,
  }));
}
// connectOverCDP's close() only disconnects: the browser stays up.
await browser.close();
