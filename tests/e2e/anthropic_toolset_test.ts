/**
 * `--tools anthropic` conformance on the GTK3 fixture: the registry serves exactly the members of
 * `computer_toolset_20260801`; every member is called with valid arguments (its effect judged by
 * the fixture's journal, the X server's pointer or a capture by ImageMagick from another process)
 * and with invalid ones (each failure reads a phrase of the fixed set and sends nothing).
 * Coordinates are pixels of the session's screenshot, scaled by the driver; points outside it are
 * errors; `zoom` returns the display's native pixels of the region.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";
import { describeResult, pngOf, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { waitFor, windowBox, x } from "../_helpers/x11_probe.ts";
import { profileTools } from "../../tools/profiles.ts";
import { allPhrases } from "../../tools/anthropic/_phrases.ts";
import { shotSizeFor } from "../../tools/_shared/session_screen.ts";

const ignore = ignoreWithoutDesktop();

/** The members of computer_toolset_20260801, in the SDK's order (@anthropic-ai/sdk 1.16.0). */
const MEMBERS = [
  "key",
  "hold_key",
  "type",
  "cursor_position",
  "mouse_move",
  "left_mouse_down",
  "left_mouse_up",
  "left_click",
  "left_click_drag",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "scroll",
  "wait",
  "screenshot",
  "zoom",
];

async function rootSize(): Promise<{ width: number; height: number }> {
  const text = await x("xwininfo", "-root");
  return {
    width: Number(/Width:\s+(\d+)/.exec(text)![1]),
    height: Number(/Height:\s+(\d+)/.exec(text)![1]),
  };
}

Deno.test({
  name: "anthropic profile: every member of computer_toolset_20260801 lands, refuses in fixed phrases",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const tools = await profileTools("anthropic");
    await using driver = await startTestDriver({ tools, listing: { profile: "anthropic" } });
    await using app = await startFixture(desktopEnv(), { x: 60, y: 60 });
    const root = await rootSize();
    const shot = shotSizeFor(root.width, root.height);
    const origin = await windowBox(app.xid);
    /** A widget's centre as a pixel of the session's screenshot. */
    const at = (name: string, dx = 0, dy = 0): [number, number] => {
      const w = app.widgets[name];
      const sx = origin.x + w.x + Math.floor(w.width / 2) + dx,
        sy = origin.y + w.y + Math.floor(w.height / 2) + dy;
      return [Math.floor(sx * shot.width / root.width), Math.floor(sy * shot.height / root.height)];
    };
    const latest = async (): Promise<JournalEntry> => (await app.readJournal()).at(-1)!;
    const until = (what: string, test: (e: JournalEntry) => boolean) =>
      waitFor(what, async () => (test(await latest()) ? await latest() : null), 10_000);
    const phrases = allPhrases([
      "coordinate",
      "text",
      "repeat",
      "duration",
      "scroll_direction",
      "scroll_amount",
      "start_coordinate",
      "region",
    ]);
    /** A failing call: its text is one phrase of the fixed set, its code the one given, and the app journals nothing. */
    const refuses = async (name: string, args: Structured, code: string) => {
      const before = (await app.readJournal()).length;
      const result = await driver.call(name, args);
      assert.equal(
        result.isError,
        true,
        `${name} ${JSON.stringify(args)} should fail: ${describeResult(result)}`,
      );
      const text = result.content[0].type === "text" ? result.content[0].text : "";
      assert.ok(phrases.has(text), `${name}: "${text}" is not a fixed phrase`);
      assert.equal(result.structuredContent?.code, code, `${name}: ${describeResult(result)}`);
      assert.deepEqual(Object.keys(result.structuredContent as Structured).sort(), [
        "code",
        "message",
        "status",
      ]);
      assert.equal(
        (await app.readJournal()).length,
        before,
        `${name} ${JSON.stringify(args)} reached the app`,
      );
    };
    const acts = async (name: string, args: Structured) => {
      const result = await driver.call(name, args);
      assert.equal(result.isError, undefined, `${name}: ${describeResult(result)}`);
      const text = result.content[0].type === "text" ? result.content[0].text : "";
      assert.match(text, /^Effect: (confirmed|unverifiable|partial|suspected_noop) \(/);
      assert.ok(
        ["confirmed", "unverifiable", "partial", "suspected_noop"].includes(
          (result.structuredContent as Structured).effect,
        ),
      );
      return (result.structuredContent as Structured);
    };

    await t.step("tools/list is exactly the members", () => {
      assert.deepEqual(driver.list().map((tool) => tool.name), MEMBERS);
    });

    await t.step("screenshot: a PNG of the session's fixed size", async () => {
      const result = await driver.call("screenshot", {});
      const image = pngOf(result);
      assert.deepEqual([image.width, image.height], [shot.width, shot.height]);
      assert.deepEqual(result.structuredContent, { width: shot.width, height: shot.height });
      await refuses("screenshot", { region: [0, 0, 1, 1] }, "invalid_arguments");
    });

    await t.step(
      "left_click at a screenshot pixel presses the button; outside the screen is an error",
      async () => {
        const counter = (await latest()).counter as number;
        await acts("left_click", { coordinate: at("btn-increment") });
        await until("the counter", (e) => e.counter === counter + 1);
        await refuses("left_click", { coordinate: [shot.width, 10] }, "coordinate_out_of_bounds");
        await refuses("left_click", { coordinate: [-1, 10] }, "coordinate_out_of_bounds");
        await refuses("left_click", { coordinate: [10, shot.height + 50] }, "coordinate_out_of_bounds");
        await refuses("left_click", { coordinate: [1, 2, 3] }, "invalid_arguments");
        await refuses("left_click", { coordinate: "10,10" }, "invalid_arguments");
        await refuses("left_click", { coordinate: at("btn-increment"), text: "hyper" }, "invalid_arguments");
        await refuses("left_click", { coordinate: at("btn-increment"), extra: 1 }, "invalid_arguments");
      },
    );

    await t.step("mouse_move, then left_click without a coordinate clicks where the cursor is", async () => {
      const clicks = (await latest()).clicks as number;
      await acts("mouse_move", { coordinate: at("btn-clicktarget") });
      const position = await driver.call("cursor_position", {});
      const [cx, cy] = at("btn-clicktarget");
      assert.ok(
        Math.abs((position.structuredContent as Structured).x - cx) <= 1 &&
          Math.abs((position.structuredContent as Structured).y - cy) <= 1,
      );
      assert.equal(
        position.content[0].type === "text" && position.content[0].text,
        `X=${(position.structuredContent as Structured).x},Y=${(position.structuredContent as Structured).y}`,
      );
      const pointer = await x("xdotool", "getmouselocation");
      const [sx, sy] = [Number(/x:(\d+)/.exec(pointer)![1]), Number(/y:(\d+)/.exec(pointer)![1])];
      assert.ok(Math.abs(Math.floor(sx * shot.width / root.width) - cx) <= 1, pointer);
      assert.ok(Math.abs(Math.floor(sy * shot.height / root.height) - cy) <= 1, pointer);
      await acts("left_click", {});
      await until("the click target", (e) => e.clicks === clicks + 1);
      await refuses("mouse_move", {}, "invalid_arguments");
      await refuses("mouse_move", { coordinate: [shot.width + 1, 0] }, "coordinate_out_of_bounds");
      await refuses("cursor_position", { x: 1 }, "invalid_arguments");
    });

    await t.step("double_click, triple_click and right_click", async () => {
      const before = await latest();
      await acts("double_click", { coordinate: at("btn-double") });
      await until("a double click", (e) => e.double_clicks === (before.double_clicks as number) + 1);
      const clicks = (await latest()).clicks as number;
      await acts("triple_click", { coordinate: at("btn-clicktarget") });
      await until("three clicks", (e) => e.clicks === clicks + 3);
      await acts("right_click", { coordinate: at("btn-context") });
      await until("a right click", (e) => e.right_clicks === (before.right_clicks as number) + 1);
      await acts("key", { text: "Escape" });
      for (const name of ["double_click", "triple_click", "right_click", "middle_click"]) {
        await refuses(name, { coordinate: [shot.width, shot.height] }, "coordinate_out_of_bounds");
        await refuses(name, { coordinate: [1] }, "invalid_arguments");
      }
    });

    await t.step("type and key into the focused entry", async () => {
      await acts("left_click", { coordinate: at("txt-input") });
      await until("the entry's focus", (e) => e.focus === "txt-input");
      await acts("type", { text: "hello" });
      await until("the typed text", (e) => e.mirror === "hello");
      await acts("key", { text: "BackSpace", repeat: 2 });
      await until("two characters deleted", (e) => e.mirror === "hel");
      await acts("key", { text: "ctrl+a" });
      await until("the hotkey", (e) => e.last_hotkey === "ctrl+a");
      await refuses("key", { text: "NoSuchKey" }, "invalid_arguments");
      await refuses("key", { text: "a", repeat: 0 }, "invalid_arguments");
      await refuses("type", { text: "" }, "invalid_arguments");
      await refuses("type", {}, "invalid_arguments");
    });

    await t.step(
      "middle_click pastes the entry's selection into the notes",
      async () => {
        // The selection comes from ctrl+a, not a triple click: a triple click split by a loaded machine
        // would leave none (the triple click's own landing is the three clicks above).
        await acts("left_click", { coordinate: at("txt-input") });
        await acts("key", { text: "ctrl+a" });
        const notes = (await latest()).notes_len as number;
        await acts("middle_click", { coordinate: at("txt-notes") });
        await until("the pasted selection", (e) => (e.notes_len as number) === notes + 3);
      },
    );

    await t.step("hold_key holds a key down on the keyboard", async () => {
      const presses = (await latest()).key_presses as number;
      await acts("hold_key", { text: "shift", duration: 0.2 });
      await until(
        "the held key",
        (e) => (e.key_presses as number) > presses && /^Shift/.test(String(e.last_key)),
      );
      await refuses("hold_key", { text: "shift" }, "invalid_arguments");
      await refuses("hold_key", { text: "shift", duration: 1000 }, "invalid_arguments");
      await refuses("hold_key", { text: "nokey", duration: 0.1 }, "invalid_arguments");
    });

    await t.step(
      "left_click_drag and left_mouse_down / mouse_move / left_mouse_up drag in the drag area",
      async () => {
        const drags = (await latest()).drags as number;
        await acts("left_click_drag", {
          start_coordinate: at("drag-area", -40),
          coordinate: at("drag-area", 40),
        });
        await until("a drag", (e) => e.drags === drags + 1);
        await refuses("left_mouse_up", {}, "button_not_held");
        await acts("mouse_move", { coordinate: at("drag-area", -30) });
        const pressedFrom = (await app.readJournal()).length;
        await acts("left_mouse_down", {});
        // The press reaches the app's journal on its own time: wait for it before counting lines again.
        await waitFor(
          "the press",
          async () =>
            (await app.readJournal()).slice(pressedFrom).some((e) => e.event === "drag_press") ? true : null,
        );
        await refuses("left_mouse_down", {}, "button_already_held");
        await acts("mouse_move", { coordinate: at("drag-area", 30) });
        await acts("left_mouse_up", {});
        await until("a second drag", (e) => e.drags === drags + 2);
        await refuses("left_click_drag", { coordinate: at("drag-area") }, "invalid_arguments");
        await refuses(
          "left_click_drag",
          { start_coordinate: at("drag-area"), coordinate: [shot.width, 0] },
          "coordinate_out_of_bounds",
        );
        await refuses("left_mouse_down", { coordinate: [1, 1] }, "invalid_arguments");
      },
    );

    await t.step("wait waits", async () => {
      const started = performance.now();
      const result = await driver.call("wait", { duration: 0.3 });
      assert.equal(result.isError, undefined, describeResult(result));
      assert.ok(performance.now() - started >= 290);
      assert.ok((result.structuredContent as Structured).waited_ms >= 290);
      await refuses("wait", { duration: -1 }, "invalid_arguments");
      await refuses("wait", {}, "invalid_arguments");
    });

    await t.step(
      "zoom: the display's native pixels of the region, as a direct capture shows them",
      async () => {
        const [x0, y0] = at("swatch", -40, -15), [x1, y1] = at("swatch", 40, 15);
        const result = await driver.call("zoom", { region: [x0, y0, x1, y1] });
        assert.equal(result.isError, undefined, describeResult(result));
        const image = pngOf(result);
        const r = (result.structuredContent as Structured).screen_region as {
          x: number;
          y: number;
          width: number;
          height: number;
        };
        assert.deepEqual([image.width, image.height], [r.width, r.height]);
        // Native: more pixels than the region has in the scaled screenshot.
        assert.ok(image.width > x1 - x0 && image.height > y1 - y0, `${image.width}x${image.height}`);
        const direct = await new Deno.Command("import", {
          args: ["-window", "root", "-crop", `${r.width}x${r.height}+${r.x}+${r.y}`, "-depth", "8", "rgba:-"],
          env: desktopEnv(),
          stdout: "piped",
        }).output();
        assert.equal(direct.stdout.length, image.data.length);
        let differing = 0;
        for (let i = 0; i < image.data.length; i += 4) {
          for (let c = 0; c < 3; c++) if (Math.abs(image.data[i + c] - direct.stdout[i + c]) > 2) differing++;
        }
        assert.equal(differing, 0, `${differing} channel values differ from the direct capture`);
        await refuses("zoom", { region: [x1, y0, x0, y1] }, "invalid_arguments");
        await refuses("zoom", { region: [0, 0, shot.width + 1, 10] }, "coordinate_out_of_bounds");
        await refuses("zoom", { region: [0, 0, 10] }, "invalid_arguments");
      },
    );
    // Last: a wheel scroll may journal after its call returns, and no refusal (which counts journal lines)
    // follows it.
    await t.step("scroll over the scrolled list moves it", async () => {
      await refuses("scroll", {
        coordinate: at("scroll-tall"),
        scroll_direction: "sideways",
        scroll_amount: 1,
      }, "invalid_arguments");
      await refuses(
        "scroll",
        { coordinate: at("scroll-tall"), scroll_direction: "down", scroll_amount: 0 },
        "invalid_arguments",
      );
      await refuses(
        "scroll",
        { coordinate: [0, shot.height], scroll_direction: "down", scroll_amount: 1 },
        "coordinate_out_of_bounds",
      );
      await acts("scroll", { coordinate: at("scroll-tall"), scroll_direction: "down", scroll_amount: 3 });
      await until("the scroll offset", (e) => (e.scroll_offset as number) > 0);
    });
  },
});
