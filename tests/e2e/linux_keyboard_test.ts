/**
 * The X11 keyboard against the GTK3 fixture: mixed-script text and a hotkey through
 * the core keyboard and through a second XInput2 master's XTEST keyboard (background
 * typing into a window that is not active), spare keycodes cleared afterwards, and
 * typing speed. Windows are focused and read back with xdotool and xprop (test-side).
 *
 * @module
 */
import assert from "node:assert/strict";
import { x11 } from "../../ffi/linux/x11.ts";
import { graphemes } from "../../src/lib/keys/key_names.ts";
import { AgentMaster } from "../../src/backends/linux/x11/input/agent_master.ts";
import {
  restoreActiveWindow as restoreActive,
  wmIdle,
} from "../../src/backends/linux/x11/input/background_keyboard.ts";
import { CORE_KEYBOARD, deviceKeyboard, X11Keyboard } from "../../src/backends/linux/x11/input/keyboard.ts";
import { Keymap } from "../../src/backends/linux/x11/input/keymap.ts";
import { XConnection } from "../../src/backends/linux/x11/connection.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";

const MIXED = "Héllo Ωμέγα 日本語 🎉 ok";

async function xdotool(...args: string[]): Promise<string> {
  const output = await new Deno.Command("xdotool", { args, env: desktopEnv(), stdin: "null" }).output();
  const decoder = new TextDecoder();
  assert.ok(output.success, `xdotool ${args.join(" ")}: ${decoder.decode(output.stderr)}`);
  return decoder.decode(output.stdout).trim();
}

/** Clicks the fixture's entry (activating its window) and waits until it has the focus. */
async function focusEntry(app: FixtureApp): Promise<void> {
  const entry = app.widgets["txt-input"];
  const x = String(Math.round(entry.x + entry.width / 2)), y = String(Math.round(entry.y + entry.height / 2));
  await xdotool("mousemove", "--window", String(app.xid), x, y, "click", "1");
  await app.waitFor((e) => e.focus === "txt-input");
}

/** `_NET_ACTIVE_WINDOW` as xdotool reads it (0 when none). */
async function activeWindow(): Promise<number> {
  const output = await new Deno.Command("xdotool", { args: ["getactivewindow"], env: desktopEnv() }).output();
  return output.success ? Number(new TextDecoder().decode(output.stdout).trim()) : 0;
}

/** The whole core keyboard mapping, for before/after comparisons. */
function mappingSnapshot(conn: XConnection): bigint[] {
  return [...Keymap.forConnection(conn).mapping.keysyms];
}

/** The core focus window and its revert-to mode. */
function coreFocus(conn: XConnection): { window: bigint; revertTo: number } {
  const window = new BigUint64Array(1), revertTo = new Int32Array(1);
  x11.symbols.XGetInputFocus(conn.unsafeDisplay(), window, revertTo);
  return { window: window[0], revertTo: revertTo[0] };
}

Deno.test({
  name: "X11Keyboard types mixed scripts and a hotkey into GTK through the core keyboard",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    await using app = await startFixture(env, { x: 40, y: 40, title: "Keyboard core" });
    await focusEntry(app);
    using conn = XConnection.open(env.DISPLAY);
    const before = mappingSnapshot(conn);
    using keyboard = X11Keyboard.open(conn);

    const started = performance.now();
    const result = await keyboard.typeText(CORE_KEYBOARD, MIXED);
    const elapsed = performance.now() - started;
    console.log(
      `core typeText of ${graphemes(MIXED).length} mixed-script characters: ${elapsed.toFixed(1)} ms`,
    );
    assert.equal(result.delivered, graphemes(MIXED).length);
    assert.deepEqual(result.missing, []);
    assert.ok(result.remapped >= 10, `é Ω μ έ γ α 日 本 語 🎉 need spare keycodes (${result.remapped})`);
    await app.waitFor((e) => e.mirror === MIXED, 3_000);

    await keyboard.press(CORE_KEYBOARD, "k", ["ctrl", "shift"]);
    await app.waitFor((e) => e.last_hotkey === "ctrl+shift+k" && e.hotkeys === 1);
    assert.deepEqual(keyboard.held(CORE_KEYBOARD), []);
    assert.deepEqual(mappingSnapshot(conn), before, "every spare keycode is NoSymbol again");
  },
});

Deno.test({
  name: "X11Keyboard types into a background window through an agent master's XTEST keyboard",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    await using target = await startFixture(env, { x: 40, y: 40, title: "Keyboard target" });
    await using other = await startFixture(env, { x: 700, y: 40, title: "Keyboard other" });
    await focusEntry(target);
    await focusEntry(other); // the other window is active and holds the core focus
    assert.equal(await activeWindow(), other.xid);
    const otherPresses = (await other.readJournal()).at(-1)?.key_presses;

    using conn = XConnection.open(env.DISPLAY);
    const before = mappingSnapshot(conn);
    const focusBefore = coreFocus(conn);
    const agent = AgentMaster.create(conn);
    using keyboard = X11Keyboard.open(conn);
    const channel = deviceKeyboard(agent.keyboardDevice, agent.keyboardId);
    try {
      agent.setFocus(BigInt(target.xid));
      const result = await keyboard.typeText(channel, MIXED);
      assert.equal(result.delivered, graphemes(MIXED).length);
      assert.deepEqual(result.missing, []);
      assert.ok(
        result.barriers.every((b) => b === "pong"),
        `the app answered _NET_WM_PING: ${result.barriers}`,
      );
      await keyboard.press(channel, "k", ["ctrl", "shift"]);
      await target.waitFor((e) => e.mirror === MIXED && e.last_hotkey === "ctrl+shift+k", 3_000);

      assert.equal(Number(await xdotool("getwindowfocus")), other.xid, "the core focus never moved");
      const otherState = (await other.readJournal()).at(-1);
      assert.equal(otherState?.mirror, "", "nothing reached the active window");
      assert.equal(otherState?.key_presses, otherPresses);
      assert.deepEqual(keyboard.held(channel), []);
      assert.deepEqual(mappingSnapshot(conn), before, "every spare keycode is NoSymbol again");
    } finally {
      await keyboard.releaseAll(channel);
      await restoreActive(conn, agent, BigInt(other.xid));
      agent.close();
    }
    assert.equal(await activeWindow(), other.xid, "_NET_ACTIVE_WINDOW names the other window again");
    assert.equal(Number(await xdotool("getwindowfocus")), other.xid);
    assert.deepEqual(coreFocus(conn), focusBefore, "the core focus is exactly where it was");
  },
});

Deno.test({
  name: "X11Keyboard types 200 characters and the app receives every one",
  ignore: ignoreWithoutDesktop(),
  async fn() {
    const env = desktopEnv();
    await using app = await startFixture(env, { x: 40, y: 40, title: "Keyboard speed" });
    await focusEntry(app);
    using conn = XConnection.open(env.DISPLAY);
    using keyboard = X11Keyboard.open(conn);
    await wmIdle(conn); // earlier tests' keymap changes keep the window manager busy for a while
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?@#()[]{}-_=+";
    const text = Array.from({ length: 200 }, (_, i) => alphabet[(i * 37) % alphabet.length]).join("");

    const started = performance.now();
    const result = await keyboard.typeText(CORE_KEYBOARD, text);
    const elapsed = performance.now() - started;
    await app.waitFor((e) => e.mirror === text, 5_000);
    const landed = performance.now() - started;
    console.log(
      `typeText of 200 ASCII characters: ${elapsed.toFixed(1)} ms (app had them all after ${
        landed.toFixed(0)
      } ms)`,
    );
    // Typing keeps pace with the app (at most PACE_CHARACTERS ahead of it, so an abort stops what
    // the app sees at once): its speed is the app's, measured in scripts/bench.ts, not asserted here.
    assert.equal(result.delivered, 200);

    // Unicode throughput, for the record: 200 characters of 40 distinct kana and kanji.
    await keyboard.press(CORE_KEYBOARD, "a", ["ctrl"]);
    const kana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよ日本";
    const unicode = Array.from({ length: 200 }, (_, i) => [...kana][(i * 7) % 40]).join("");
    const unicodeStarted = performance.now();
    const unicodeResult = await keyboard.typeText(CORE_KEYBOARD, unicode);
    const unicodeElapsed = performance.now() - unicodeStarted;
    await app.waitFor((e) => e.mirror === unicode, 5_000);
    console.log(
      `typeText of 200 non-keymap characters (40 distinct): ${unicodeElapsed.toFixed(1)} ms, ` +
        `${unicodeResult.remapped} binds, ${unicodeResult.barriers.length} app barriers`,
    );
    assert.equal(unicodeResult.delivered, 200);
  },
});
