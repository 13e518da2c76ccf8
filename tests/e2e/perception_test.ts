/**
 * parse_visual_regions end to end on the GTK3 fixture: the button labels are read as
 * text regions inside the buttons' frames (taken from the same get_window_state's
 * elements), the buttons are framed as control regions, a click at a region's centre
 * with its screenshot_id lands on that button (the fixture's own journal counts it), and
 * a screenshot that no longer describes the screen is refused. Without the engine (the
 * library override pointing nowhere, in a driver subprocess) the answer is
 * not_installed with the remedy, and install_extension previews the package install.
 *
 * @module
 */
import assert from "node:assert/strict";
import { PIXEL_CACHE_ENTRIES } from "../../src/kernel/captures.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverEnv, runDriver } from "../_helpers/driver.ts";
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured, type TestDriver } from "../_helpers/in_process_driver.ts";

const ignore = ignoreWithoutDesktop();

/** Accessible name → label of the fixture's push buttons (tests/fixtures/gtk3_harness.py). */
const BUTTONS: Record<string, string> = {
  "btn-increment": "Increment",
  "btn-reset": "Reset",
  "btn-clicktarget": "Click target",
  "btn-context": "Context",
  "btn-double": "Double click",
};

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function inside(inner: Rect, outer: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height;
}

/** The screenshot-pixel frame of each fixture button, from get_window_state's own elements. */
function buttonFrames(state: Structured): Record<string, Rect> {
  const scale = state.screenshot_scale as number;
  const frames: Record<string, Rect> = {};
  for (const name of Object.keys(BUTTONS)) {
    const element = (state.elements as Structured[]).find((e) => e.label === name && e.frame);
    assert.ok(element, `get_window_state lists ${name} with a frame`);
    const { x, y, w, h } = element.frame;
    frames[name] = {
      x: Math.round((x - state.bounds.x) * scale),
      y: Math.round((y - state.bounds.y) * scale),
      width: Math.round(w * scale),
      height: Math.round(h * scale),
    };
  }
  return frames;
}

function region(parsed: Structured, kind: "text" | "control", text: string): Structured {
  const found = (parsed.regions as Structured[]).find((r) => r.kind === kind && r.text === text);
  assert.ok(found, `a ${kind} region reads "${text}"; regions: ${summary(parsed)}`);
  return found;
}

function summary(parsed: Structured): string {
  return (parsed.regions as Structured[]).map((r) => `${r.kind}:${JSON.stringify(r.text)}`).join(" ");
}

async function counter(app: FixtureApp): Promise<number> {
  return Number((await app.readJournal()).at(-1)!.counter);
}

async function refused(driver: TestDriver, name: string, args: Structured, reason: string): Promise<void> {
  const envelope = await driver.fails(name, args, "stale_screenshot");
  assert.equal(envelope.reason, reason, JSON.stringify(envelope));
  assert.equal(envelope.status, "refused");
  assert.match(envelope.hint, /parse_visual_regions|capture again/);
}

Deno.test({
  name:
    "parse_visual_regions reads the fixture's buttons, a click on a region lands, stale captures are refused",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using app = await startFixture(env, { title: "Perception fixture", x: 60, y: 80 });
    const target = { pid: app.pid, window_id: app.xid };
    const state = await driver.ok("get_window_state", target);
    const shot = state.screenshot_id as string;
    const frames = buttonFrames(state);
    const parsed = await driver.ok("parse_visual_regions", { screenshot_id: shot });

    await t.step(
      "the button labels are text regions inside the buttons, and the buttons are controls",
      () => {
        assert.equal(parsed.screenshot_id, shot);
        assert.deepEqual([parsed.width, parsed.height], [state.screenshot_width, state.screenshot_height]);
        assert.equal(parsed.engine.name, "tesseract");
        assert.match(parsed.engine.version, /^\d+\./);
        assert.equal(typeof parsed.elapsed_ms, "number");
        for (const [name, label] of Object.entries(BUTTONS)) {
          const text = region(parsed, "text", label);
          assert.ok(
            inside(text.bounds, frames[name]),
            `"${label}" ${JSON.stringify(text.bounds)} lies inside ${JSON.stringify(frames[name])}`,
          );
          assert.ok(text.region_id.startsWith(`${shot}:r`), text.region_id);
          assert.ok(text.confidence >= 0.5 && text.confidence <= 1);
          assert.equal(text.words.map((w: Structured) => w.text).join(" "), label);
          const control = region(parsed, "control", label);
          assert.equal(control.text_region_id, text.region_id);
          for (const key of ["x", "y", "width", "height"] as const) {
            assert.ok(
              Math.abs(control.bounds[key] - frames[name][key]) <= 3,
              `control "${label}" ${JSON.stringify(control.bounds)} matches ${JSON.stringify(frames[name])}`,
            );
          }
        }
        const ids = (parsed.regions as Structured[]).map((r) => r.region_id);
        assert.equal(new Set(ids).size, ids.length, "region ids are unique");
      },
    );

    await t.step("kinds and max_regions filter the answer", async () => {
      const controls = await driver.ok("parse_visual_regions", { screenshot_id: shot, kinds: ["control"] });
      assert.ok(controls.regions.length >= 5);
      assert.ok(controls.regions.every((r: Structured) => r.kind === "control"));
      const two = await driver.ok("parse_visual_regions", { screenshot_id: shot, max_regions: 2 });
      assert.equal(two.regions.length, 2);
      assert.equal(two.truncated, true);
    });

    await t.step("a click at the Increment region's centre with its screenshot_id increments", async () => {
      const before = await counter(app);
      const increment = region(parsed, "text", "Increment");
      await driver.ok("click", { ...target, ...increment.center, screenshot_id: shot });
      await app.waitFor((e) => e.event === "click" && Number(e.counter) === before + 1);
      assert.equal(await counter(app), before + 1);
    });

    await t.step("a capture of another session, or an unknown id, is refused", async () => {
      const center = region(parsed, "text", "Reset").center;
      await refused(
        driver,
        "parse_visual_regions",
        { screenshot_id: shot, session: "perception-other" },
        "unknown",
      );
      await refused(
        driver,
        "click",
        { ...target, ...center, screenshot_id: shot, session: "perception-other" },
        "unknown",
      );
      await refused(driver, "parse_visual_regions", { screenshot_id: "c000000000000" }, "unknown");
    });

    await t.step("a click through a superseded or moved capture is refused and sends nothing", async () => {
      const before = await counter(app);
      const center = region(parsed, "text", "Increment").center;
      const newer = await driver.ok("get_window_state", { ...target, include_screenshot: true });
      await refused(driver, "click", { ...target, ...center, screenshot_id: shot }, "superseded");
      await driver.ok("set_window_frame", {
        ...target,
        x: newer.bounds.x + 40,
        y: newer.bounds.y + 20,
        width: newer.bounds.width,
        height: newer.bounds.height,
      });
      await refused(
        driver,
        "click",
        { ...target, ...center, screenshot_id: newer.screenshot_id },
        "geometry_changed",
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await counter(app), before, "no refused click reached the app");
    });

    await t.step("parsing is refused once a capture's pixels were evicted by newer captures", async () => {
      const old = await driver.ok("get_window_state", target);
      for (let i = 0; i < PIXEL_CACHE_ENTRIES; i++) await driver.ok("get_desktop_state", {});
      await refused(driver, "parse_visual_regions", { screenshot_id: old.screenshot_id }, "pixels_evicted");
    });

    await t.step(
      "a desktop capture puts the labels where the window is on screen, without blocking",
      async () => {
        const fresh = await driver.ok("get_window_state", target);
        const desktop = await driver.ok("get_desktop_state", {});
        const parsing = driver.ok("parse_visual_regions", { screenshot_id: desktop.screenshot_id });
        // Recognition runs on other threads: the driver keeps answering meanwhile.
        const started = performance.now();
        await driver.ok("get_screen_size", {});
        const answeredMs = performance.now() - started;
        const parsedDesktop = await parsing;
        assert.ok(
          answeredMs < parsedDesktop.elapsed_ms / 2,
          `get_screen_size took ${answeredMs} ms during a ${parsedDesktop.elapsed_ms} ms parse`,
        );
        const element = (fresh.elements as Structured[]).find((e) => e.label === "btn-increment")!;
        const frame = {
          x: element.frame.x,
          y: element.frame.y,
          width: element.frame.w,
          height: element.frame.h,
        };
        const hits = (parsedDesktop.regions as Structured[]).filter((r) =>
          r.kind === "text" && r.text === "Increment" && inside(r.bounds, frame)
        );
        assert.equal(
          hits.length,
          1,
          `one "Increment" inside ${JSON.stringify(frame)}: ${summary(parsedDesktop)}`,
        );
      },
    );
  },
});

Deno.test({
  name:
    "parse_visual_regions answers not_installed without the engine; install_extension previews the install",
  ignore,
  async fn() {
    const env = driverEnv({ CUA_DRIVER_LIB_TESSERACT: "/nonexistent/libtesseract.so.5" });
    try {
      const parse = await runDriver(
        ["parse_visual_regions", '{"screenshot_id": "c000000000000"}', "--desktop", "system"],
        { env },
      );
      assert.equal(parse.code, 1, parse.stdout + parse.stderr);
      const envelope = JSON.parse(parse.stderr);
      assert.equal(envelope.code, "not_installed");
      assert.equal(envelope.status, "refused");
      assert.match(envelope.message, /libtesseract/);
      assert.match(envelope.remedy, /cua-driver install_extension '\{"confirm": true\}'/);
      assert.match(envelope.remedy, /apt-get install tesseract-ocr tesseract-ocr-eng/);
      assert.match(envelope.hint, /install_extension/);

      const preview = await runDriver(["install_extension", "{}", "--desktop", "system"], { env });
      assert.equal(preview.code, 0, preview.stderr);
      const planned = JSON.parse(preview.stdout);
      assert.equal(planned.name, "perception");
      assert.equal(planned.installed, false);
      assert.equal(planned.ran, false);
      assert.equal(planned.manager, "apt-get");
      assert.equal(planned.command, "apt-get install -y tesseract-ocr tesseract-ocr-eng libtesseract5");
      assert.match(planned.missing, /libtesseract/);
    } finally {
      await Deno.remove(env.CUA_DRIVER_CONFIG_DIR, { recursive: true }).catch(() => {});
    }
  },
});
