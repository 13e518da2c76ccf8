/**
 * Makes the README's pictures of the live view and of a trajectory report, on a desktop of its
 * own: `cua-driver serve` with its listener, the GTK3 fixture, a few calls through MCP (one
 * recorded), the view and the report opened in headless Chromium and captured over DevTools.
 *
 *     deno run -A scripts/readme_screenshots.ts      # writes docs/images/live_view.png, report.png
 *
 * @module
 */
import { EmbeddedDesktop } from "../src/backends/linux/desktop/embedded_desktop.ts";

const root = new URL("..", import.meta.url).pathname;
const desktop = await EmbeddedDesktop.start({ handleSignals: true });
for (const [key, value] of Object.entries(desktop.env)) Deno.env.set(key, value);
const { startFixture } = await import("../tests/_helpers/fixture_app.ts");
const { desktopEnv } = await import("../tests/_helpers/desktop_env.ts");
const { evalIn, screenshotOf } = await import("../tests/_helpers/cdp_oracle.ts");
const { startChromium, startViewServer, until } = await import("../tests/_helpers/view_rig.ts");
const { runDriver } = await import("../tests/_helpers/driver.ts");

await Deno.mkdir(`${root}docs/images`, { recursive: true });
{
  await using server = await startViewServer();
  await using app = await startFixture(desktopEnv(), { title: "Live view", x: 320, y: 140 });
  await using browser = await startChromium(server.printedUrl);
  await until(
    "the first frame",
    () => evalIn(browser.cdpPort, "/view", "document.getElementById('frame').dataset.seq"),
  );
  const call = (name: string, args: Record<string, unknown>) =>
    server.mcp.callTool({ name, arguments: args });
  const dir = await Deno.makeTempDir({ prefix: "cua-readme-recording-" });
  await call("start_recording", { output_dir: dir });
  const state = (await call("get_window_state", { pid: app.pid, window_id: app.xid })).structuredContent as {
    screenshot_scale: number;
    elements: { label: string; element_token: string }[];
  };
  const token = (label: string) => state.elements.find((e) => e.label === label)!.element_token;
  await call("click", { element_token: token("btn-increment") });
  const entry = app.widgets["txt-input"];
  await call("type_text", {
    target: { kind: "window", pid: app.pid, window_id: app.xid },
    x: Math.round((entry.x + entry.width / 2) * state.screenshot_scale),
    y: Math.round((entry.y + entry.height / 2) * state.screenshot_scale),
    text: "hello from the agent",
  });
  await call("set_value", { element_token: token("sld-value"), value: "70" });
  await call("click", { element_token: "s00000000:9" });
  await call("stop_recording", {});
  await until(
    "four calls listed",
    async () =>
      (await evalIn(browser.cdpPort, "/view", "document.querySelectorAll('#calls li').length")) >= 4,
  );
  await new Promise((resolve) => setTimeout(resolve, 800)); // the last frame and thumbnails paint
  await Deno.writeFile(`${root}docs/images/live_view.png`, await screenshotOf(browser.cdpPort, "/view"));
  const out = `${dir}/report.html`;
  const run = await runDriver(["report", dir, "--out", out], { env: server.env });
  if (run.code !== 0) throw new Error(run.stderr);
  await using reportBrowser = await startChromium(`file://${out}`);
  await until(
    "the report",
    () =>
      evalIn(
        reportBrowser.cdpPort,
        "report.html",
        "document.readyState === 'complete' && !!document.querySelector('article')",
      ),
  );
  await Deno.writeFile(
    `${root}docs/images/report.png`,
    await screenshotOf(reportBrowser.cdpPort, "report.html"),
  );
  await Deno.remove(dir, { recursive: true });
}
await desktop.stop();
console.log("wrote docs/images/live_view.png and docs/images/report.png");
