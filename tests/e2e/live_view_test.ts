/**
 * The live view and the stop switch, end to end: `cua-driver serve` with its listener, a real
 * headless Chromium showing /view (read through its own DevTools port), an MCP client over HTTP
 * acting on the GTK3 fixture, and the fixture's journal and the X server (xinput, xdotool,
 * xsetroot from other clients) as the judges. How fast a change shows and how fast a stop
 * stops are measured in scripts/bench/live_view.ts; here each waits on its condition.
 */
import assert from "node:assert/strict";
import { closeTab, evalIn, evalInTarget, openTab } from "../_helpers/cdp_oracle.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { runDriver } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import { startChromium, startViewServer, until, VIEW_TOKEN, viewFetch } from "../_helpers/view_rig.ts";
import { settledText } from "../_helpers/settled_text.ts";
import { x } from "../_helpers/x11_probe.ts";

const hasChromium = await Deno.stat("/usr/bin/chromium").then(() => true, () => false);
const ignore = ignoreWithoutDesktop() || !hasChromium;
const TEXT = "v".repeat(400);

/** Every X input device with a button or key held down now (xinput query-state, another client). */
async function pressedDevices(): Promise<string[]> {
  const ids = (await x("xinput", "list", "--id-only")).split("\n").map((s) => s.trim()).filter(Boolean);
  const pressed: string[] = [];
  for (const id of ids) {
    const state = await x("xinput", "query-state", id).catch(() => "");
    if (/(button|key)\[\d+\]=down/.test(state)) pressed.push(`${id}: ${state.replace(/\s+/g, " ")}`);
  }
  return pressed;
}

Deno.test({
  name: "live view shows the desktop and the calls behind the token, and its stop switch stops input",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using server = await startViewServer();
    await using browser = await startChromium();
    await using app = await startFixture(desktopEnv(), { title: "Live view", x: 60, y: 60 });
    const cdp = browser.cdpPort;
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await server.mcp.callTool({ name, arguments: args });
      return { isError: result.isError === true, structured: (result.structuredContent ?? {}) as Structured };
    };
    /**
     * Pixel arguments for a control, from a fresh observation: over HTTP an MCP session lives on
     * its TCP connection, which the server may close while the client idles between steps.
     */
    const at = async (name: string) => {
      const observed = await call("get_window_state", { pid: app.pid, window_id: app.xid });
      assert.equal(observed.isError, false, JSON.stringify(observed.structured).slice(0, 400));
      const scale = observed.structured.screenshot_scale as number;
      const w = app.widgets[name];
      return { x: Math.round((w.x + w.width / 2) * scale), y: Math.round((w.y + w.height / 2) * scale) };
    };
    const target = { kind: "window", pid: app.pid, window_id: app.xid };
    const page = (expression: string) => evalIn(cdp, "/view", expression);
    let firstTab = "";

    await t.step("without the token: 401, no page, no frame", async () => {
      const bare = await viewFetch(`${server.base}/view`);
      assert.equal(bare.status, 401);
      const body = await bare.text();
      assert.match(body, /Token required/);
      assert.doesNotMatch(body, /id="frame"/);
      const wrong = await viewFetch(`${server.base}/view?token=not-the-token-0123456789abcdefghijkl`);
      assert.equal(wrong.status, 401);
      await wrong.body?.cancel();
      const tries: Record<string, string>[] = [{}, {
        Authorization: "Bearer wrong-token-0123456789abcdefghijklmnopq",
      }];
      for (const headers of tries) {
        const events = await viewFetch(`${server.base}/view/events`, { headers });
        assert.equal(events.status, 401);
        assert.doesNotMatch(await events.text(), /event: frame/);
      }
      const stop = await viewFetch(`${server.base}/view/stop`, { method: "POST" });
      assert.equal(stop.status, 401);
      await stop.body?.cancel();
      const foreign = await viewFetch(`${server.base}/view/events`, {
        headers: { Authorization: `Bearer ${VIEW_TOKEN}`, Origin: "http://evil.example" },
      });
      assert.equal(foreign.status, 403);
      await foreign.body?.cancel();
      // In the browser too: the 401 page has no frame.
      const tab = await openTab(cdp, `${server.base}/view`);
      const seen = await until("the 401 page", async () => (await page("document.title")) || undefined);
      assert.match(seen, /token required/);
      assert.equal(await page("document.getElementById('frame')"), null);
      await closeTab(cdp, tab);
    });

    await t.step(
      "with the printed URL: the page shows frames and takes the token out of the address bar",
      async () => {
        assert.ok(server.printedUrl.startsWith(`${server.base}/view?token=`), server.printedUrl);
        firstTab = await openTab(cdp, server.printedUrl);
        await until("a first frame", () => page("document.getElementById('frame').dataset.seq"));
        assert.equal(await page("location.href"), `${server.base}/view`);
        assert.equal(await page("sessionStorage.getItem('cua-view-token')"), VIEW_TOKEN);
        assert.equal(await page("document.getElementById('state').textContent"), "running");
      },
    );

    await t.step("a change another client paints shows up", async () => {
      // The root window's bottom-right corner, which no window covers; JPEG needs some tolerance.
      const corner = `(() => {
        const img = document.getElementById('frame');
        if (!img.naturalWidth) return null;
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        return Array.from(g.getImageData(c.width - 6, c.height - 6, 1, 1).data.slice(0, 3));
      })()`;
      try {
        await x("xsetroot", "-solid", "#12d312");
        const rgb = await until("the green root in the view", async () => {
          const value = await page(corner) as number[] | null;
          const green = value !== null && Math.abs(value[0] - 0x12) < 24 && Math.abs(value[1] - 0xd3) < 24 &&
            Math.abs(value[2] - 0x12) < 24;
          return green ? value : undefined;
        });
        assert.ok(rgb);
      } finally {
        await x("xsetroot", "-def");
      }
    });

    await t.step("a click made through MCP is listed with its effect", async () => {
      const before = Number((await app.readJournal()).at(-1)?.counter ?? 0);
      const clicked = await call("click", { target, ...await at("btn-increment") });
      assert.equal(clicked.isError, false, JSON.stringify(clicked.structured));
      await app.waitFor((e) => e.event === "click" && e.counter === before + 1);
      const listed = await until(
        "the click in the call list",
        () =>
          page(`(() => {
          const li = [...document.querySelectorAll('#calls li')].find((l) =>
            l.dataset.tool === 'click' && l.dataset.status === 'ok');
          // The thumbnail follows the entry in an update of its own.
          return li && li.querySelector('img')
            ? { effect: li.dataset.effect, text: li.textContent, thumb: true }
            : undefined;
        })()`),
      );
      assert.equal(listed.effect, clicked.structured.effect);
      assert.match(listed.text, /route/);
      assert.ok(listed.thumb, "the entry has a thumbnail of the click point");
    });

    await t.step("Stop on the page stops a long type_text; the app holds what was delivered", async () => {
      const typing = call("type_text", { target, ...await at("txt-input"), text: TEXT, delay_ms: 25 });
      await Promise.race([
        app.waitFor((e) => typeof e.mirror === "string" && e.mirror.length >= 8, 15_000),
        typing.then((r) => {
          throw new Error(`type_text ended first: ${JSON.stringify(r.structured)}`);
        }),
      ]);
      await page("document.getElementById('stop').click()");
      const stopped = await typing;
      assert.equal(stopped.isError, true);
      assert.equal(stopped.structured.code, "aborted");
      assert.equal(stopped.structured.reason, "input_stopped");
      const first = await settledText(app);
      assert.ok(first.length < TEXT.length, `typing stopped early (${first.length} of ${TEXT.length})`);
      assert.equal(
        first.length,
        stopped.structured.delivered_count,
        "the app holds what the driver delivered",
      );
      assert.equal(await settledText(app), first, "nothing arrived after the stop");
      await until(
        "the page showing the stop",
        async () => /input stopped by view/.test(await page("document.getElementById('state').textContent")),
      );
    });

    await t.step("while stopped, acting calls are refused and observation works", async () => {
      const before = Number((await app.readJournal()).at(-1)?.counter ?? 0);
      const refused = await call("click", { target, ...await at("btn-increment") });
      assert.equal(refused.isError, true);
      assert.equal(refused.structured.code, "input_stopped");
      const observe = await call("get_window_state", { pid: app.pid, window_id: app.xid });
      assert.equal(observe.isError, false);
      // The refused click sent nothing: a barrier click is the next one the app counts.
      await settledText(app);
      const counters = (await app.readJournal()).filter((e) => e.event === "click").map((e) => e.counter);
      assert.equal(counters.at(-1), before + 1, "only the barrier click arrived");
    });

    await t.step("Resume on the page lets input through again", async () => {
      await page("document.getElementById('resume').click()");
      await until(
        "the page showing running",
        async () => (await page("document.getElementById('state').textContent")) === "running",
      );
      const before = Number((await app.readJournal()).at(-1)?.counter ?? 0);
      const clicked = await call("click", { target, ...await at("btn-increment") });
      assert.equal(clicked.isError, false, JSON.stringify(clicked.structured));
      await app.waitFor((e) => e.event === "click" && e.counter === before + 1);
    });

    await t.step("stop-input from the CLI releases a held button (xinput from another client)", async () => {
      const down = await call("mouse_button_down", {
        pid: app.pid,
        window_id: app.xid,
        ...await at("drag-area"),
      });
      assert.equal(down.isError, false, JSON.stringify(down.structured));
      await app.waitFor((e) => e.event === "drag_press");
      assert.ok((await pressedDevices()).length > 0, "a device holds the button before the stop");
      const stop = await runDriver(["stop-input", "--socket", server.socket], { env: server.env });
      assert.equal(stop.code, 0, stop.stderr);
      assert.match(stop.stdout, /input stopped/);
      await app.waitFor((e) => e.event === "drag");
      assert.deepEqual(await pressedDevices(), [], "every button and key is up");
      const refused = await call("mouse_button_up", { pid: app.pid, window_id: app.xid });
      assert.equal(refused.structured.code, "input_stopped");
      const resume = await runDriver(["resume-input", "--socket", server.socket], { env: server.env });
      assert.equal(resume.code, 0, resume.stderr);
      assert.match(resume.stdout, /input resumed/);
    });

    await t.step(
      "a second viewer, one that leaves mid-stream and one too many: the server keeps serving",
      async () => {
        const second = await openTab(cdp, server.printedUrl);
        // A change shows in both tabs: each has its own stream.
        await until(
          "the second viewer's first frame",
          () => evalInTarget(cdp, second, "document.getElementById('frame').dataset.seq"),
        );
        const seqs = () =>
          Promise.all(
            [firstTab, second].map((id) =>
              evalInTarget(cdp, id, "Number(document.getElementById('frame').dataset.seq)")
            ),
          );
        const before = await seqs();
        try {
          await x("xsetroot", "-solid", "#3355aa");
          await until("a new frame in both viewers", async () => {
            const now = await seqs();
            return now.every((seq, i) => seq > before[i]) || undefined;
          });
        } finally {
          await x("xsetroot", "-def");
        }
        await closeTab(cdp, second);
        // Abandon a raw stream mid-read.
        const controller = new AbortController();
        const raw = await viewFetch(`${server.base}/view/events`, {
          headers: { Authorization: `Bearer ${VIEW_TOKEN}` },
          signal: controller.signal,
        });
        const reader = raw.body!.getReader();
        await reader.read();
        controller.abort();
        await reader.read().catch(() => {});
        const streams: Response[] = [];
        let refused: Response | null = null;
        for (let i = 0; i < 10 && !refused; i++) {
          const response = await viewFetch(`${server.base}/view/events`, {
            headers: { Authorization: `Bearer ${VIEW_TOKEN}` },
          });
          if (response.status === 429) refused = response;
          else streams.push(response);
        }
        assert.ok(refused, "a viewer beyond the limit is refused");
        assert.match(await refused.text(), /viewers/);
        for (const stream of streams) await stream.body?.cancel();
        const health = await call("get_screen_size", {});
        assert.equal(health.isError, false);
      },
    );
  },
});
