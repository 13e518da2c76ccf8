/**
 * An untitled transient dialog is a window like any other, and a field shows what it holds.
 * The fixture (tests/fixtures/gtk3_untitled_dialog.py) opens a main window and a modal
 * dialog without a title on top of it, as LibreOffice's Document Recovery confirmation is.
 * list_windows lists the dialog with its empty title and its owner (xprop reads the same
 * from the X server), and a click on its button by element token answers it (the app says
 * which button, and the window is gone from the window manager's list). The main window's
 * entry already holds "Untitled": the observation shows that value, and type_text into it
 * says what the field held and holds now (the app reports its text); a newline typed into
 * its text view through accessibility is a newline character there, and the result says so
 * instead of calling it Enter.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { FIXTURE_PYTHON } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import { clientList, waitFor, x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();
const SCRIPT = fileURLToPath(new URL("../fixtures/gtk3_untitled_dialog.py", import.meta.url));

interface Fixture {
  pid: number;
  main: number;
  dialog: number;
  /** Every event line so far. */
  events: Structured[];
  stop(): Promise<void>;
}

function textOf(result: ToolResult): string {
  return (result.content.find((c) => c.type === "text") as { text: string }).text;
}

async function startUntitledDialog(): Promise<Fixture> {
  const child = new Deno.Command(FIXTURE_PYTHON, {
    args: [SCRIPT],
    env: desktopEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const events: Structured[] = [];
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).values();
  let buffered = "";
  const pump = (async () => {
    for await (const chunk of lines) {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        events.push(JSON.parse(buffered.slice(0, end)));
        buffered = buffered.slice(end + 1);
      }
    }
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
    await pump.catch(() => {});
  };
  try {
    const ready = await waitFor("the fixture's ready line", () => {
      return Promise.resolve(events.find((e) => e.event === "ready") ?? null);
    }, 20_000);
    return { pid: ready.pid, main: ready.main, dialog: ready.dialog, events, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

Deno.test({
  name: "list_windows lists an untitled transient dialog with its owner, and its button answers it",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    const app = await startUntitledDialog();
    try {
      // The X server's own record: an empty name, transient for the main window.
      const props = await x("xprop", "-id", String(app.dialog), "_NET_WM_NAME", "WM_TRANSIENT_FOR");
      assert.match(props, /_NET_WM_NAME\(UTF8_STRING\) = (?:"")? *$/m, props);
      assert.match(props, new RegExp(`window id # 0x${app.main.toString(16)}\\b`), props);

      const listed = await driver.call("list_windows", { pid: app.pid });
      const windows = (listed.structuredContent as Structured).windows as Structured[];
      const dialog = windows.find((w) => w.window_id === app.dialog);
      assert.ok(dialog, `the dialog among ${JSON.stringify(windows)}`);
      assert.equal(dialog.title, "");
      assert.equal(dialog.transient_for, app.main);
      assert.equal(windows.find((w) => w.window_id === app.main)?.transient_for, null);
      assert.match(
        textOf(listed),
        new RegExp(`window_id=${app.dialog}\\] .*"" \\(untitled\\).* dialog of window_id=${app.main}`),
      );

      const desktop = await driver.ok("get_desktop_state", {});
      assert.ok((desktop.windows as Structured[]).some((w) => w.window_id === app.dialog && w.title === ""));

      const state = await waitFor("the dialog's Keep button", async () => {
        const read = await driver.ok("get_window_state", {
          pid: app.pid,
          window_id: app.dialog,
          include_screenshot: false,
        });
        return (read.elements as Structured[]).find((e) => e.role === "push button" && e.label === "Keep") ??
          null;
      }, 15_000);
      await driver.ok("click", { element_token: state.element_token });
      await waitFor("the app's answer", () => {
        return Promise.resolve(app.events.find((e) => e.event === "answered") ?? null);
      }, 10_000).then((answer) => assert.equal(answer.button, "Keep"));
      await waitFor("the dialog to leave the client list", async () => {
        return (await clientList()).includes(app.dialog) ? null : true;
      }, 10_000);
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "get_window_state shows what a named field holds, and type_text says it added to it",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    const app = await startUntitledDialog();
    try {
      const read = await waitFor("the main window's field", async () => {
        const state = await driver.call("get_window_state", {
          pid: app.pid,
          window_id: app.main,
          include_screenshot: false,
        });
        const field = (state.structuredContent as Structured).elements.find((e: Structured) =>
          e.label === "File name:"
        );
        return field ? { state: state.structuredContent as Structured, field, text: textOf(state) } : null;
      }, 15_000);
      assert.equal(read.field.value, "Untitled");
      assert.match(read.text, /"File name:" value="Untitled"/);
      const notes = (read.state.elements as Structured[]).find((e) => e.label === "Notes");
      assert.equal(notes?.value, "two words");

      // A query look at the same window leaves the tokens already in hand valid.
      const looked = await driver.ok("get_window_state", {
        pid: app.pid,
        window_id: app.main,
        include_screenshot: false,
        query: "Notes",
      });
      assert.deepEqual(looked.invalidated_snapshot_ids, []);
      const typed = await driver.call("type_text", { element_token: read.field.element_token, text: " v2" });
      const summary = textOf(typed);
      const changed = await waitFor("the app's text", () => {
        return Promise.resolve(app.events.findLast((e) => e.event === "text") ?? null);
      }, 10_000);
      assert.equal(changed.text, "Untitled v2");
      assert.match(summary, /already held "Untitled".* holds "Untitled v2" now/);
      assert.match(summary, /set_value/);

      // A newline through the accessibility insert is a newline character, and the result says so.
      const multi = await driver.call("type_text", {
        element_token: notes.element_token,
        text: "First\nSecond",
      });
      const notesText = await waitFor("the app's notes", () => {
        return Promise.resolve(app.events.findLast((e) => e.event === "notes") ?? null);
      }, 10_000);
      assert.ok(notesText.text.includes("First\nSecond"), JSON.stringify(notesText));
      assert.match(textOf(multi), /route=accessibility/);
      assert.match(textOf(multi), /1 newline went in as newline characters, not Enter.*press_key "Return"/);
    } finally {
      await app.stop();
    }
  },
});
