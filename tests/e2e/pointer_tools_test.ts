/**
 * The pointer tools end to end on the GTK3 fixture: double_click, right_click, drag,
 * scroll, move_cursor, mouse_button_down/mouse_drag/mouse_button_up and
 * parallel_mouse_drag. Every effect is checked in the fixture's own journal; every
 * background action is checked to leave `_NET_ACTIVE_WINDOW` (another window is
 * active), the user's pointer and the stacking order as they were; a covered point is
 * refused while the covering window journals nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { type FixtureApp, type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { activeWindow, waitFor, windowBox, x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

/** What a background action must leave alone. */
interface DesktopState {
  active: number | null;
  pointer: string;
  stacking: string;
}

async function desktopState(): Promise<DesktopState> {
  const [active, pointer, stacking] = await Promise.all([
    activeWindow(),
    x("xdotool", "getmouselocation"),
    x("xprop", "-root", "_NET_CLIENT_LIST_STACKING"),
  ]);
  return { active, pointer: pointer.replace(/ window:\d+/, "").trim(), stacking: stacking.trim() };
}

async function latest(app: FixtureApp): Promise<JournalEntry> {
  return (await app.readJournal()).at(-1)!;
}

/** The fixture's mapped popup menu (an override-redirect child of the root), if any. */
async function popupMenu(app: FixtureApp): Promise<string | null> {
  const tree = await x("xwininfo", "-root", "-children");
  for (const match of tree.matchAll(/(0x[0-9a-f]+) "[^"]*": \("cua-test-harness-gtk3"/g)) {
    const info = await x("xwininfo", "-id", match[1]);
    const pid = await x("xprop", "-id", match[1], "_NET_WM_PID").catch(() => "");
    if (/IsViewable/.test(info) && (pid === "" || pid.includes(String(app.pid)) || !/= \d+/.test(pid))) {
      return match[1];
    }
  }
  return null;
}

Deno.test({
  name: "pointer tools act on the GTK3 fixture in background, and refuse covered points",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    const started = performance.now();
    await using driver = await startTestDriver();
    await using a = await startFixture(env, { title: "Pointer A", x: 10, y: 10 });
    await using b = await startFixture(env, { title: "Pointer B", x: 640, y: 10 });
    try {
      const ok = driver.ok;
      const targetA = { kind: "window", pid: a.pid, window_id: a.xid };
      // B is the active window: background input to A must not change that.
      await x("xdotool", "windowactivate", "--sync", String(b.xid));
      const stateA = await ok("get_window_state", { pid: a.pid, window_id: a.xid });
      const scale = stateA.screenshot_scale as number;
      assert.ok(scale > 0, "window A has a screenshot");
      /** A pixel of A's screenshot: widget-relative (dx, dy) of a named control. */
      const px = (app: FixtureApp, widget: string, dx: number, dy: number) => {
        const w = app.widgets[widget];
        assert.ok(w, `fixture reports ${widget}`);
        return { x: Math.round((w.x + dx) * scale), y: Math.round((w.y + dy) * scale) };
      };
      const centre = (app: FixtureApp, widget: string) => {
        const w = app.widgets[widget];
        return px(app, widget, Math.round(w.width / 2), Math.round(w.height / 2));
      };
      const before = await desktopState();
      assert.equal(before.active, b.xid);
      const untouched = async (what: string) => {
        assert.deepEqual(
          await desktopState(),
          before,
          `${what} left the active window, pointer and stacking alone`,
        );
      };

      await t.step("double_click counts one double click on btn-double", async () => {
        const result = await ok("double_click", { target: targetA, ...centre(a, "btn-double") });
        assert.deepEqual(result.delivery, { mode: "background", delivered_count: 2 });
        const entry = await a.waitFor((e) => e.event === "double_click");
        assert.equal(entry.double_clicks, 1);
        await untouched("double_click");
      });

      await t.step(
        "right_click opens btn-context's menu; a background click elsewhere closes it",
        async () => {
          const result = await ok("right_click", { target: targetA, ...centre(a, "btn-context") });
          assert.equal(result.route, "global_input");
          const entry = await a.waitFor((e) => e.event === "right_click");
          assert.equal(entry.right_clicks, 1);
          assert.equal(entry.last_action, "context");
          await waitFor("the context menu to open", () => popupMenu(a));
          await untouched("right_click");
          // GTK grabs the seat the press came from: the private pointer and keyboard, so the user's
          // keyboard (xdotool key Escape) cannot reach the menu. A private-pointer press outside it can.
          await x("xdotool", "key", "Escape");
          assert.ok(await popupMenu(a), "Escape on the user's keyboard does not reach the agent's menu");
          const journalLength = (await a.readJournal()).length;
          await ok("click", { target: targetA, ...centre(a, "swatch") });
          await waitFor("the context menu to close", async () => (await popupMenu(a)) ? null : true);
          assert.equal((await a.readJournal()).length, journalLength, "the dismissing click changed nothing");
          await untouched("closing the menu");
        },
      );

      await t.step("drag draws a stroke in drag-area with the right start and end", async () => {
        const from = px(a, "drag-area", 10, 10), to = px(a, "drag-area", 200, 40);
        const result = await ok("drag", {
          target: targetA,
          from_x: from.x,
          from_y: from.y,
          to_x: to.x,
          to_y: to.y,
          duration_ms: 300,
          steps: 10,
        });
        // The drawing area exposes no value, but the fixture shows the drag in a label.
        assert.equal(result.effect, "confirmed", "the witness saw the app change");
        assert.deepEqual(result.evidence, [{ kind: "window_change" }]);
        const entry = await a.waitFor((e) => e.event === "drag");
        assert.equal(entry.drag, "from 10,10 to 200,40");
        // GDK merges motion events that queue up while the app is busy, so how many of the 10 steps
        // the app sees depends on the machine's load; more than one shows a path, not a jump.
        assert.ok((entry.drag_motions as number) >= 2, `motion events arrived: ${entry.drag_motions}`);
        await untouched("drag");
      });

      await t.step("drag moves sld-value's knob, read back as confirmed", async () => {
        const slider = a.widgets["sld-value"];
        const y = slider.height - 12;
        const from = px(a, "sld-value", 6, y), to = px(a, "sld-value", Math.round(slider.width / 2), y);
        const result = await ok("drag", {
          target: targetA,
          from_x: from.x,
          from_y: from.y,
          to_x: to.x,
          to_y: to.y,
          duration_ms: 100,
          steps: 10,
        });
        const entry = await a.waitFor((e) => e.event === "slider" && (e.slider_value as number) >= 30);
        assert.ok((entry.slider_value as number) <= 70, `about half way: ${entry.slider_value}`);
        assert.equal(result.effect, "confirmed");
        assert.deepEqual(result.evidence, [{ kind: "value_readback" }]);
        await untouched("slider drag");
      });

      await t.step(
        "scroll with the wheel over scroll-tall moves its content, confirmed by the scroll bar",
        async () => {
          const result = await ok("scroll", {
            target: targetA,
            direction: "down",
            amount: 3,
            ...centre(a, "scroll-tall"),
          });
          const entry = await a.waitFor((e) => e.event === "scroll" && (e.scroll_offset as number) > 0);
          assert.ok((entry.scroll_offset as number) > 0);
          assert.equal(result.effect, "confirmed");
          assert.deepEqual(result.delivery, { mode: "background", delivered_count: 3 });
          await untouched("scroll");
        },
      );

      await t.step("scroll on sld-value's element_token steps its value through AT-SPI", async () => {
        const state = await ok("get_window_state", { pid: a.pid, window_id: a.xid });
        const row = (state.elements as Structured[]).find((e) => e.label === "sld-value");
        assert.ok(row, "the slider is an element");
        const startValue = (await latest(a)).slider_value as number;
        const result = await ok("scroll", {
          element_token: row.element_token,
          direction: "right",
          amount: 4,
        });
        assert.equal(result.route, "accessibility");
        assert.equal(result.effect, "confirmed");
        const entry = await a.waitFor((e) => e.event === "slider" && e.slider_value === startValue + 4);
        assert.equal(entry.slider_value, startValue + 4);
        await untouched("element scroll");
      });

      await t.step("move_cursor moves only the private pointer over the window", async () => {
        const point = centre(a, "swatch");
        const result = await ok("move_cursor", { target: targetA, ...point });
        assert.equal(result.effect, "confirmed");
        assert.deepEqual(result.delivery, { mode: "background", delivered_count: 1 });
        await untouched("move_cursor (window)");
      });

      await t.step("mouse_button_down, mouse_drag, mouse_button_up draw one stroke", async () => {
        const journalLength = (await a.readJournal()).length;
        const p0 = px(a, "drag-area", 20, 70),
          p1 = px(a, "drag-area", 120, 30),
          p2 = px(a, "drag-area", 240, 60);
        await ok("mouse_button_down", { pid: a.pid, window_id: a.xid, ...p0 });
        const again = await driver.call("mouse_button_down", { pid: a.pid, window_id: a.xid, ...p0 });
        assert.equal(again.structuredContent?.code, "button_already_held");
        await ok("mouse_drag", { ...p1, duration_ms: 60, steps: 6 });
        await ok("mouse_drag", { ...p2, duration_ms: 60, steps: 6 });
        await ok("mouse_button_up", {});
        const entry = await a.waitFor((e) => e.event === "drag" && e.drag === "from 20,70 to 240,60");
        assert.ok((entry.drag_motions as number) >= 3, `motions: ${entry.drag_motions}`);
        assert.ok((await a.readJournal()).length > journalLength);
        const up = await driver.call("mouse_button_up", {});
        assert.equal(up.structuredContent?.code, "button_not_held");
        await untouched("mouse_button_down/drag/up");
      });

      await t.step("parallel_mouse_drag draws in A and B at once with two private pointers", async () => {
        const stateB = await ok("get_window_state", { pid: b.pid, window_id: b.xid, session: "b" });
        await ok("get_window_state", { pid: a.pid, window_id: a.xid, session: "a" });
        const scaleB = stateB.screenshot_scale as number;
        const inB = (dx: number, dy: number) => {
          const w = b.widgets["drag-area"];
          return [Math.round((w.x + dx) * scaleB), Math.round((w.y + dy) * scaleB)];
        };
        const inA = (dx: number, dy: number) => {
          const p = px(a, "drag-area", dx, dy);
          return [p.x, p.y];
        };
        const result = await ok("parallel_mouse_drag", {
          drags: [
            {
              session: "a",
              window_id: a.xid,
              path: [inA(30, 20), inA(90, 80), inA(150, 20)],
              duration_ms: 150,
            },
            { session: "b", window_id: b.xid, path: [inB(200, 80), inB(40, 15)], duration_ms: 150 },
          ],
        });
        assert.deepEqual(result.delivery, { mode: "background", delivered_count: 2 });
        const [strokeA, strokeB] = await Promise.all([
          a.waitFor((e) => e.event === "drag" && e.drag === "from 30,20 to 150,20"),
          b.waitFor((e) => e.event === "drag" && e.drag === "from 200,80 to 40,15"),
        ]);
        assert.ok(
          strokeA.t <= strokeB.t + 150 && strokeB.t <= strokeA.t + 150,
          "the strokes overlapped in time",
        );
        await untouched("parallel_mouse_drag");
      });

      await t.step(
        "a covered point is refused where nothing can land, scrolled through its scroll bar where it can",
        async () => {
          const boxA = await windowBox(a.xid);
          // Put B's frame where A's client area starts (B stays the active window and covers A).
          await x("xdotool", "windowmove", "--sync", String(b.xid), String(boxA.x), String(boxA.y));
          await waitFor("B over A", async () => {
            const boxB = await windowBox(b.xid);
            return Math.abs(boxB.x - boxA.x) < 20 && Math.abs(boxB.y - boxA.y) < 40 ? true : null;
          });
          const journalB = (await b.readJournal()).length, journalA = (await a.readJournal()).length;
          const covered = await desktopState();
          for (
            const [tool, args] of [
              ["double_click", { target: targetA, ...centre(a, "btn-double") }],
              ["right_click", { target: targetA, ...centre(a, "btn-context") }],
              ["drag", { target: targetA, from_x: 30, from_y: 560, to_x: 90, to_y: 560, duration_ms: 0 }],
              ["move_cursor", { target: targetA, ...centre(a, "swatch") }],
              ["mouse_button_down", { pid: a.pid, window_id: a.xid, ...centre(a, "btn-double") }],
            ] as const
          ) {
            const refusal = await driver.fails(tool, args, "background_unavailable");
            assert.match(String(refusal.message), /covers window/);
          }
          await new Promise((resolve) => setTimeout(resolve, 150));
          assert.equal((await b.readJournal()).length, journalB, "the covering window journaled no input");
          assert.equal((await a.readJournal()).length, journalA, "the covered window got nothing either");
          assert.deepEqual(await desktopState(), covered, "nothing moved while refusing");

          // A covered point of a scrolled view: its own scroll bar moves through accessibility.
          const offset = Number((await latest(a)).scroll_offset);
          const scrolled = await ok("scroll", {
            target: targetA,
            direction: "down",
            ...centre(a, "scroll-tall"),
          });
          assert.equal(scrolled.route, "accessibility", JSON.stringify(scrolled));
          await a.waitFor((e) => Number(e.scroll_offset) > offset);
          assert.equal(scrolled.effect, "confirmed", "read back from the scroll bar");
          await new Promise((resolve) => setTimeout(resolve, 150));
          assert.equal((await b.readJournal()).length, journalB, "the covering window journaled no input");
          assert.deepEqual(await desktopState(), covered, "nothing moved while scrolling");
        },
      );

      await t.step(
        "drag with delivery_mode foreground reaches the covered window, then restores B",
        async () => {
          const journalB = (await b.readJournal()).length;
          const from = px(a, "drag-area", 30, 40), to = px(a, "drag-area", 120, 45);
          const result = await ok("drag", {
            target: targetA,
            from_x: from.x,
            from_y: from.y,
            to_x: to.x,
            to_y: to.y,
            duration_ms: 60,
            steps: 6,
            delivery_mode: "foreground",
          });
          assert.deepEqual(result.delivery, { mode: "foreground", delivered_count: 1 });
          await a.waitFor((e) => e.event === "drag" && e.drag === "from 30,40 to 120,45");
          assert.equal((await b.readJournal()).length, journalB, "B, on top before and after, got nothing");
          const after = await desktopState();
          assert.equal(after.active, b.xid, "B is active again");
          assert.equal(after.pointer, before.pointer, "the user's pointer is back");
        },
      );

      await t.step("move_cursor on the desktop moves the user's pointer and reads it back", async () => {
        const result = await ok("move_cursor", { target: { kind: "desktop" }, x: 1500, y: 900 });
        assert.equal(result.effect, "confirmed");
        assert.match(await x("xdotool", "getmouselocation"), /^x:1500 y:900 /);
      });
    } finally {
      console.log(`pointer tools e2e: ${Math.round(performance.now() - started)} ms`);
    }
  },
});
