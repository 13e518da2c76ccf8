/**
 * `cua-driver report DIR` on a recording made here: the driver records a session on the GTK3
 * fixture (a confirmed click, typing, and a call that fails), the report command writes one
 * HTML file, and a real headless Chromium opens it from disk: one entry per turn folder
 * (counted in the DOM), every image decoded, the failed turn marked, no request made.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evalIn } from "../_helpers/cdp_oracle.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { runDriver } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { startChromium, until } from "../_helpers/view_rig.ts";

const hasChromium = await Deno.stat("/usr/bin/chromium").then(() => true, () => false);
const ignore = ignoreWithoutDesktop() || !hasChromium;

Deno.test({
  name: "report turns a recording into one HTML file Chromium renders offline, a turn an entry",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    await using app = await startFixture(desktopEnv(), { title: "Report", x: 80, y: 80 });
    const dir = await Deno.makeTempDir({ prefix: "cua-report-" });
    await driver.ok("start_recording", { output_dir: dir });
    const state = await driver.ok("get_window_state", { pid: app.pid, window_id: app.xid });
    const scale = state.screenshot_scale as number;
    const increment = (state.elements as Structured[]).find((e) => e.label === "btn-increment");
    assert.ok(increment, "the fixture's increment button is in the tree");
    await driver.ok("click", { element_token: increment.element_token });
    await app.waitFor((e) => e.event === "click" && e.counter === 1);
    const entry = app.widgets["txt-input"];
    await driver.ok("type_text", {
      target: { kind: "window", pid: app.pid, window_id: app.xid },
      x: Math.round((entry.x + entry.width / 2) * scale),
      y: Math.round((entry.y + entry.height / 2) * scale),
      text: "report",
    });
    await app.waitFor((e) => e.mirror === "report");
    await driver.fails("click", { element_token: "s00000000:1" }, "stale_element_token");
    await driver.ok("stop_recording", {});
    const turns: string[] = [];
    for await (const e of Deno.readDir(dir)) if (/^turn-\d+$/.test(e.name)) turns.push(e.name);
    assert.equal(turns.length, 3, `one turn per acting call: ${turns}`);

    const out = join(dir, "trajectory.html");
    const run = await runDriver(["report", dir, "--out", out]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`${turns.length} turn`));
    const html = await Deno.readTextFile(out);
    assert.doesNotMatch(html, /(src|href)="(https?:|\/\/)/, "nothing in the file points at the network");

    await using browser = await startChromium(`file://${out}`);
    const read = (expression: string) => evalIn(browser.cdpPort, "trajectory.html", expression);
    await until(
      "the report to load",
      () => read("document.title.startsWith('cua-driver trajectory') && document.readyState === 'complete'"),
    );
    assert.equal(await read("document.querySelectorAll('article.turn').length"), turns.length);
    const images = await read(
      "[...document.images].map((i) => ({ ok: i.complete && i.naturalWidth > 0, alt: i.alt }))",
    ) as { ok: boolean; alt: string }[];
    assert.ok(images.length >= 2, `the report holds screenshots: ${JSON.stringify(images)}`);
    assert.ok(images.every((i) => i.ok), `every image decodes: ${JSON.stringify(images)}`);
    assert.deepEqual(
      await read("[...document.querySelectorAll('article.turn')].map((a) => a.dataset.tool)"),
      ["click", "type_text", "click"],
    );
    const failed = await read(
      "[...document.querySelectorAll('article[data-standout=failed]')].map((a) => a.dataset.turn)",
    ) as string[];
    assert.ok(failed.length >= 1, "the failed click stands out");
    assert.equal(await read("performance.getEntriesByType('resource').length"), 0, "no request was made");
    // The confirmed click's turn shows the tree change the click caused (the counter label).
    assert.match(
      await read("document.querySelector('article[data-turn=\"1\"]').textContent"),
      /line\(s\) added/,
    );
    await Deno.remove(dir, { recursive: true });
  },
});
