/**
 * list_windows and get_window_state end to end, against two GTK3 fixture windows, a
 * fixture with its accessibility bridge off, and an Xt window (xmessage) that has no
 * accessibility at all. Every answer is checked against what the app or the X server
 * says on its own: the fixture's journal and ready line, xwininfo/xprop, the screen's
 * pixels read with ImageMagick, and the pixels the fixture paints in its swatch.
 *
 * @module
 */
import assert from "node:assert/strict";
import { decodePng } from "../../src/lib/image/png.ts";
import type { RawImage } from "../../src/ports/screen.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";
import { pngOf, startTestDriver, type Structured, type TestDriver } from "../_helpers/in_process_driver.ts";
import {
  clientList,
  parseColour,
  pixelAt,
  sameColour,
  screenPixel,
  waitFor,
  windowBox,
  x,
} from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

/** Green, so it cannot be mistaken for the default magenta swatch of window A. */
const SWATCH_B = "#1f9e3a";

function windowOf(list: Structured, xid: number): Structured | undefined {
  return (list.windows as Structured[]).find((w) => w.window_id === xid);
}

/** Window-relative points inside the swatch (centre and inset corners) and one just outside it. */
function swatchPoints(app: FixtureApp): { inside: [number, number][]; outside: [number, number] } {
  const s = app.widgets.swatch;
  assert.ok(s && s.width >= 100 && s.height >= 30, `ready line has the swatch: ${JSON.stringify(s)}`);
  return {
    inside: [
      [s.x + s.width / 2, s.y + s.height / 2],
      [s.x + 3, s.y + 3],
      [s.x + s.width - 4, s.y + s.height - 4],
    ],
    outside: [s.x + s.width + 12, s.y + s.height / 2],
  };
}

/** Asserts that `image` (of the window's client area) shows `app`'s swatch where the app drew it. */
function assertSwatch(image: RawImage, app: FixtureApp, what: string): void {
  const colour = parseColour(app.swatch);
  const { inside, outside } = swatchPoints(app);
  for (const [px, py] of inside) {
    const seen = pixelAt(image, px, py);
    assert.ok(sameColour(seen, colour), `${what}: pixel (${px}, ${py}) is ${seen}, the swatch is ${colour}`);
  }
  const beside = pixelAt(image, ...outside);
  assert.ok(!sameColour(beside, colour), `${what}: the swatch colour stops at its right edge`);
}

async function activate(xid: number): Promise<void> {
  await x("xdotool", "windowactivate", "--sync", String(xid));
}

/** get_window_state's structured result, plus its outline (the text after the header) as tree_markdown. */
async function state(driver: TestDriver, app: FixtureApp, extra: Record<string, unknown> = {}) {
  const result = await driver.call("get_window_state", { pid: app.pid, window_id: app.xid, ...extra });
  assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
  const text = result.content.find((part) => part.type === "text");
  const outline = text?.type === "text" ? text.text.slice(text.text.indexOf("\n\n") + 2) : "";
  const structured: Structured = { ...result.structuredContent, tree_markdown: outline };
  return structured;
}

Deno.test({
  name: "list_windows and get_window_state report what the X server and the GTK3 fixture show",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    // A and B lie exactly on top of each other; B maps last, so it starts in front.
    await using a = await startFixture(env, { title: "Windows tools A", x: 40, y: 40 });
    await using b = await startFixture(env, { title: "Windows tools B", x: 40, y: 40, swatch: SWATCH_B });
    const boxA = await windowBox(a.xid);
    const boxB = await windowBox(b.xid);
    assert.deepEqual({ ...boxA, mapped: true }, { ...boxB, mapped: true }, "A and B share one position");

    await t.step("list_windows lists each fixture window with its pid, title and X11 bounds", async () => {
      const list = await driver.ok("list_windows");
      for (const [app, box] of [[a, boxA], [b, boxB]] as const) {
        const window = windowOf(list, app.xid);
        assert.ok(window, `window ${app.xid} listed`);
        const ready = (await app.readJournal()).find((e) => e.event === "ready")!;
        assert.equal(window.pid, ready.pid, "pid is the one the app reports for itself");
        assert.equal(window.title, app.title);
        assert.deepEqual(window.bounds, { x: box.x, y: box.y, width: box.width, height: box.height });
        assert.equal(window.is_on_screen, true);
      }
      const managed = await clientList();
      for (const window of list.windows as Structured[]) {
        assert.ok(managed.includes(window.window_id), `${window.window_id} is in _NET_CLIENT_LIST`);
      }
    });

    await t.step("list_windows pid filter keeps only that process's windows", async () => {
      const list = await driver.ok("list_windows", { pid: a.pid });
      assert.deepEqual((list.windows as Structured[]).map((w) => w.window_id), [a.xid]);
    });

    await t.step("z_index follows the real stacking order, as the screen's pixels show it", async () => {
      const [sx, sy] = swatchPoints(a).inside[0];
      const onScreen = () => screenPixel(boxA.x + sx, boxA.y + sy);
      for (const [front, back] of [[a, b], [b, a]] as const) {
        await activate(front.xid);
        const seen = await waitFor(
          "the front window's swatch on screen",
          async () => {
            const pixel = await onScreen();
            return sameColour(pixel, parseColour(front.swatch)) ? pixel : null;
          },
        );
        assert.ok(seen, "the X server shows the front window's swatch");
        const list = await driver.ok("list_windows");
        const zFront = windowOf(list, front.xid)!.z_index, zBack = windowOf(list, back.xid)!.z_index;
        assert.ok(
          typeof zFront === "number" && typeof zBack === "number" && zFront > zBack,
          `${front.title} is in front: z_index ${zFront} vs ${zBack}`,
        );
      }
    });

    await t.step("get_window_state returns the fixture's own labels and named controls", async () => {
      const snapshot = await state(driver, a, { include_screenshot: false });
      const last = (await a.readJournal()).at(-1)!;
      // Every state value the app journals is a label the tree shows.
      for (const key of ["counter", "clicks", "last_action", "choice", "slider_value"]) {
        const text = `${key}=${last[key]}`;
        assert.ok(snapshot.tree_markdown.includes(`label = "${text}"`), `tree shows "${text}"`);
      }
      for (const name of Object.keys(a.widgets)) {
        assert.ok(snapshot.tree_markdown.includes(`"${name}"`), `tree names ${name}`);
      }
      const roles = new Map((snapshot.elements as Structured[]).map((e) => [e.label, e.role]));
      assert.equal(roles.get("btn-increment"), "push button");
      assert.equal(roles.get("chk-agree"), "check box");
      assert.equal(roles.get("txt-input"), "text");
      assert.equal(roles.get("sld-value"), "slider");
      assert.equal(roles.get("cmb-choice"), "combo box");
      assert.equal(snapshot.title, a.title);
      assert.equal(snapshot.degraded, undefined);
    });

    await t.step("element frames lie inside the window and match the fixture's widget geometry", async () => {
      const snapshot = await state(driver, a, { include_screenshot: false });
      let matched = 0;
      for (const element of snapshot.elements as Structured[]) {
        const frame = element.frame;
        if (!frame) continue;
        assert.ok(
          frame.x >= boxA.x - 1 && frame.y >= boxA.y - 1 && frame.x + frame.w <= boxA.x + boxA.width + 1 &&
            frame.y + frame.h <= boxA.y + boxA.height + 1,
          `${element.label} ${JSON.stringify(frame)} inside ${JSON.stringify(boxA)}`,
        );
        const widget = a.widgets[element.label];
        if (!widget) continue;
        const got = [frame.x - boxA.x, frame.y - boxA.y, frame.w, frame.h];
        const want = [widget.x, widget.y, widget.width, widget.height];
        assert.ok(
          got.every((v, i) => Math.abs(v - want[i]) <= 3),
          `${element.label}: frame relative to the window ${got}, GTK says ${want}`,
        );
        matched++;
      }
      assert.ok(matched >= 8, `${matched} named controls compared with their GTK geometry`);
    });

    await t.step(
      "a click at btn-increment's frame reaches the app; a fresh snapshot shows counter=1",
      async () => {
        await activate(a.xid);
        const before = await state(driver, a, { include_screenshot: false });
        assert.match(before.tree_markdown, /label = "counter=0"/);
        const button = (before.elements as Structured[]).find((e) => e.label === "btn-increment")!;
        const cx = Math.round(button.frame.x + button.frame.w / 2),
          cy = Math.round(button.frame.y + button.frame.h / 2);
        await x("xdotool", "mousemove", "--sync", String(cx), String(cy), "click", "1");
        const entry = await a.waitFor((e) => e.event === "click" && e.counter === 1);
        assert.equal(entry.last_action, "increment");
        const after = await state(driver, a, { include_screenshot: false });
        assert.match(after.tree_markdown, /label = "counter=1"/);
        assert.match(after.tree_markdown, /label = "last_action=increment"/);
        assert.doesNotMatch(after.tree_markdown, /counter=0/);
        assert.equal((await b.readJournal()).at(-1)!.counter, 0, "window B got no click");
      },
    );

    await t.step("the screenshot has the window's size and the swatch where the app drew it", async () => {
      const result = await driver.call("get_window_state", { pid: a.pid, window_id: a.xid });
      const image = pngOf(result);
      const box = await windowBox(a.xid);
      assert.deepEqual([image.width, image.height], [box.width, box.height], "PNG size is xwininfo's size");
      assertSwatch(image, a, "window A");
    });

    await t.step("a covered window still captures its own pixels", async () => {
      await activate(b.xid);
      const [sx, sy] = swatchPoints(a).inside[0];
      await waitFor("B in front on screen", async () => {
        const pixel = await screenPixel(boxA.x + sx, boxA.y + sy);
        return sameColour(pixel, parseColour(SWATCH_B)) ? pixel : null;
      });
      assertSwatch(
        pngOf(await driver.call("get_window_state", { pid: a.pid, window_id: a.xid })),
        a,
        "covered A",
      );
      assertSwatch(
        pngOf(await driver.call("get_window_state", { pid: b.pid, window_id: b.xid })),
        b,
        "front B",
      );
    });

    await t.step("each snapshot replaces the previous one and lists it as invalidated", async () => {
      const first = await state(driver, a, { include_screenshot: false });
      const second = await state(driver, a, { include_screenshot: false });
      assert.notEqual(second.snapshot_id, first.snapshot_id);
      assert.ok(
        second.invalidated_snapshot_ids.includes(first.snapshot_id),
        "the first snapshot is invalidated",
      );
      assert.ok(
        second.elements.every((e: Structured) => e.element_token.startsWith(`${second.snapshot_id}:`)),
      );
    });

    await t.step("query filters the outline but keeps element indices", async () => {
      const full = await state(driver, a, { include_screenshot: false });
      const filtered = await state(driver, a, { include_screenshot: false, query: "COUNTER" });
      assert.match(filtered.tree_markdown, /label = "counter=1"/);
      assert.doesNotMatch(filtered.tree_markdown, /btn-reset|Row 7|clicks=/);
      assert.ok(filtered.tree_markdown.split("\n").length < full.tree_markdown.split("\n").length / 5);
      const labels = (s: Structured) =>
        s.elements.map((e: Structured) => `${e.element_token.split(":")[1]}:${e.label}`) as string[];
      // The structured rows follow the query: the counter label has no element, so none of them stays.
      assert.ok(labels(filtered).length < labels(full).length / 5, "elements follow the query");
      // The counts describe what came back; the window's size stays what there was.
      assert.equal(filtered.returned_element_count, filtered.elements.length);
      assert.equal(full.returned_element_count, full.elements.length);
      assert.equal(filtered.total_element_count, full.total_element_count);
      for (const label of labels(filtered)) assert.ok(labels(full).includes(label), `${label}: same index`);
      const byIncrement = await state(driver, a, { include_screenshot: false, query: "btn-increment" });
      const increment = labels(byIncrement).find((l) => l.endsWith(":btn-increment"));
      assert.ok(increment && labels(full).includes(increment), "a matching element keeps its index");
    });

    await t.step("max_elements truncates and says so", async () => {
      const full = await state(driver, a, { include_screenshot: false });
      assert.equal(full.truncated, false);
      assert.ok(full.total_element_count > 50);
      const small = await state(driver, a, { include_screenshot: false, max_elements: 10 });
      assert.equal(small.truncated, true);
      assert.equal(small.elements_complete, false);
      assert.ok(small.returned_element_count <= 10, `${small.returned_element_count} elements returned`);
      assert.equal(small.returned_element_count, small.elements.length);
      assert.ok(small.elements.length < full.elements.length);
      assert.match(small.tree_markdown, /CuaTestHarness|Windows tools A/);
      // The cut tree still says how big the window is, and the header how much was left out.
      assert.equal(small.total_element_count, full.total_element_count);
      const cut = await driver.call("get_window_state", {
        pid: a.pid,
        window_id: a.xid,
        include_screenshot: false,
        max_elements: 10,
      });
      const header = cut.content[0].type === "text" ? cut.content[0].text.split("\n")[0] : "";
      const said = /truncated: (\d+) of (\d+) nodes, (\d+) left out/.exec(header);
      assert.ok(said, header);
      const [read, total, left] = said.slice(1).map(Number);
      assert.equal(total, full.total_element_count);
      assert.ok(read <= 10 && read + left === total, header);
    });

    await t.step("include_screenshot:false returns no image; screenshot_out_file writes a PNG", async () => {
      const bare = await driver.call("get_window_state", {
        pid: a.pid,
        window_id: a.xid,
        include_screenshot: false,
      });
      assert.deepEqual(bare.content.map((part) => part.type), ["text"]);
      assert.equal(bare.structuredContent?.screenshot_width, undefined);

      const dir = await Deno.makeTempDir({ prefix: "cua-shot-" });
      try {
        const path = `${dir}/a.png`;
        const result = await driver.call("get_window_state", {
          pid: a.pid,
          window_id: a.xid,
          screenshot_out_file: path,
        });
        assert.deepEqual(result.content.map((part) => part.type), ["text"], "no inline image");
        assert.equal(result.structuredContent?.screenshot_file_path, path);
        const image = decodePng(await Deno.readFile(path));
        assert.deepEqual([image.width, image.height], [boxA.width, boxA.height]);
        assertSwatch(image, a, "written PNG");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });

    await t.step("a wrong pid for the window is refused with window_target_not_found", async () => {
      const error = await driver.fails(
        "get_window_state",
        { pid: b.pid, window_id: a.xid },
        "window_target_not_found",
      );
      const xprop = await x("xprop", "-id", String(a.xid), "_NET_WM_PID");
      assert.equal(
        error.owner_pid,
        Number(/= (\d+)/.exec(xprop)![1]),
        "owner_pid is the window's _NET_WM_PID",
      );
      assert.match(error.hint, /list_windows/);
    });

    await t.step("a window that has vanished is window_target_not_found", async () => {
      const c = await startFixture(env, { title: "Windows tools C", x: 700, y: 40 });
      await state(driver, c, { include_screenshot: false });
      await c.stop();
      assert.ok(!(await clientList()).includes(c.xid), "the window manager forgot the window");
      await driver.fails("get_window_state", { pid: c.pid, window_id: c.xid }, "window_target_not_found");
      assert.equal(windowOf(await driver.ok("list_windows"), c.xid), undefined);
    });

    await t.step("a withdrawn window is not listed; on_screen_only drops a minimized one", async () => {
      const c = await startFixture(env, { title: "Windows tools C", x: 700, y: 40 });
      try {
        await x("xdotool", "windowunmap", "--sync", String(c.xid));
        await waitFor(
          "openbox to unmanage C",
          async () => (await clientList()).includes(c.xid) ? null : true,
        );
        assert.equal(windowOf(await driver.ok("list_windows"), c.xid), undefined);

        await x("xdotool", "windowmap", "--sync", String(c.xid));
        await waitFor("openbox to map C again", async () => (await windowBox(c.xid)).mapped || null);
        assert.equal(
          windowOf(await driver.ok("list_windows", { on_screen_only: true }), c.xid)?.is_on_screen,
          true,
        );

        await x("xdotool", "windowminimize", "--sync", String(c.xid));
        await waitFor(
          "xwininfo: a minimized window is unmapped",
          async () => (await windowBox(c.xid)).mapped ? null : true,
        );
        const all = await driver.ok("list_windows", { pid: c.pid });
        assert.equal(windowOf(all, c.xid)?.is_on_screen, false);
        const visible = await driver.ok("list_windows", { pid: c.pid, on_screen_only: true });
        assert.deepEqual(visible.windows, []);
        assert.ok(windowOf(await driver.ok("list_windows", { on_screen_only: true }), a.xid), "A stays");
      } finally {
        await c.stop();
      }
    });

    await t.step("a window without an accessibility tree is degraded but still captured", async () => {
      await using dark = await startFixture({ ...env, NO_AT_BRIDGE: "1" }, {
        title: "Windows tools no AT-SPI",
        x: 700,
        y: 40,
        swatch: "#2d5be3",
      });
      // Mapped is not painted yet on a loaded machine: the first captures may be black.
      const result = await waitFor("the window without AT-SPI painted in its capture", async () => {
        const read = await driver.call("get_window_state", { pid: dark.pid, window_id: dark.xid });
        const [px, py] = swatchPoints(dark).inside[0];
        return sameColour(pixelAt(pngOf(read), px, py), parseColour(dark.swatch)) ? read : null;
      }, 15_000);
      const snapshot = result.structuredContent as Structured;
      assert.equal(snapshot.degraded, true);
      assert.deepEqual(snapshot.elements, []);
      assert.equal(snapshot.escalation?.recommended, "px");
      assert.match(snapshot.degraded_reason, /atspi/);
      assertSwatch(pngOf(result), dark, "window without AT-SPI");
    });

    await t.step(
      "an Xt window: no _NET_WM_PID is refused; with one it is degraded; a dead owner is stale",
      async () => {
        const title = `Windows tools xmessage ${Deno.pid}`;
        const xmessage = new Deno.Command("xmessage", {
          args: ["-title", title, "-geometry", "+1300+40", "no accessibility here"],
          env,
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).spawn();
        try {
          const xid = Number(
            (await x("xdotool", "search", "--sync", "--name", `^${title}$`)).trim().split("\n")[0],
          );
          const listed = windowOf(await driver.ok("list_windows"), xid);
          assert.equal(listed?.pid, null, "Xt sets no _NET_WM_PID, and the driver does not guess");
          await driver.fails(
            "get_window_state",
            { pid: xmessage.pid, window_id: xid },
            "window_target_not_found",
          );

          await x(
            "xprop",
            "-id",
            String(xid),
            "-f",
            "_NET_WM_PID",
            "32c",
            "-set",
            "_NET_WM_PID",
            String(xmessage.pid),
          );
          const snapshot = await driver.ok("get_window_state", { pid: xmessage.pid, window_id: xid });
          assert.equal(snapshot.degraded, true);
          assert.deepEqual([snapshot.screenshot_width, snapshot.screenshot_height], [
            (await windowBox(xid)).width,
            (await windowBox(xid)).height,
          ]);

          const gone = new Deno.Command("true").spawn();
          await gone.status;
          await x(
            "xprop",
            "-id",
            String(xid),
            "-f",
            "_NET_WM_PID",
            "32c",
            "-set",
            "_NET_WM_PID",
            String(gone.pid),
          );
          await driver.fails("get_window_state", { pid: gone.pid, window_id: xid }, "window_stale");
        } finally {
          xmessage.kill();
          await xmessage.status;
        }
      },
    );
  },
});
