/**
 * Modal dialogs opened through the driver leave the app answering. GTK runs an accessible
 * action inside the D-Bus dispatch of the connection it came on, so a dialog that action
 * opens (gtk_dialog_run) holds that connection for as long as it is up; the driver sends
 * such calls on a connection of their own. Four dialogs of mousepad (GTK 3): the Save As
 * file chooser from the menu (invoke_menu), the Open file chooser from the toolbar (its
 * button by element token), Save As again by clicking its menu item's element token, and
 * the "save changes?" message dialog from File > Close Window. Each is judged by the app:
 * the dialog's window appears, an independent AT-SPI reader (a fresh libatspi process)
 * lists it, the driver reads its widgets and the main window's in full, and the dialog
 * closes when the driver answers it (a button by token, or Escape on the keyboard).
 *
 * The AT-SPI registry can list an application whose bus name is gone for good (one that
 * died while it registered, which a busy machine makes likely): libatspi then fails to give
 * that entry's pid ("Process is defunct"). The test starts by leaving such an entry, as an
 * earlier test can, and the independent reader steps over it.
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { FIXTURE_PYTHON } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured, type TestDriver } from "../_helpers/in_process_driver.ts";
import { waitFor } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

/** Toplevel names of `pid` as libatspi sees them, from a process of its own (never the driver's bus). */
async function independentToplevels(pid: number): Promise<string[]> {
  const script = `
import gi, sys
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib
desktop = Atspi.get_desktop(0)
for i in range(desktop.get_child_count()):
    app = desktop.get_child_at_index(i)
    try:
        owner = app.get_process_id() if app is not None else None
    except GLib.Error:
        continue  # listed by the registry, gone from the bus
    if owner == ${pid}:
        for j in range(app.get_child_count()):
            print(app.get_child_at_index(j).get_name())
`;
  const output = await new Deno.Command(FIXTURE_PYTHON, {
    args: ["-c", script],
    env: desktopEnv(),
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  return new TextDecoder().decode(output.stdout).split("\n").filter((l) => l !== "");
}

/**
 * Leaves the registry an application that is not on the bus: an Embed call naming a bus
 * name nobody owns, as the registry records an app that died while it registered.
 */
async function leaveRegistryGhost(): Promise<void> {
  const script = `
from gi.repository import Gio, GLib
session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
    GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
bus = Gio.DBusConnection.new_for_address_sync(address,
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
bus.call_sync("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Socket", "Embed",
    GLib.Variant("((so))", ((":1.999999", "/org/a11y/atspi/accessible/root"),)), None, Gio.DBusCallFlags.NONE,
    5000, None)
`;
  const output = await new Deno.Command(FIXTURE_PYTHON, {
    args: ["-c", script],
    env: desktopEnv(),
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
}

async function windowsOf(driver: TestDriver, pid: number): Promise<Structured[]> {
  return ((await driver.ok("list_windows")).windows as Structured[]).filter((w) =>
    w.pid === pid && w.is_on_screen
  );
}

/** Waits for a window of `pid` titled like `title` besides `main`; returns it. */
async function dialogOf(driver: TestDriver, pid: number, main: number, title: RegExp): Promise<Structured> {
  return await waitFor(`a ${title} dialog`, async () => {
    return (await windowsOf(driver, pid)).find((w) => w.window_id !== main && title.test(w.title)) ?? null;
  }, 15_000);
}

/**
 * What the driver and an independent reader see of an open dialog; the main window answers
 * too. The dialog's window can map before its accessible registers: wait for its own tree
 * (its Cancel button), never degraded.
 */
async function checkAnswering(
  driver: TestDriver,
  pid: number,
  main: number,
  dialog: Structured,
  minElements: number,
) {
  const state = await waitFor(`the widgets of "${dialog.title}"`, async () => {
    const read = await driver.ok("get_window_state", {
      pid,
      window_id: dialog.window_id,
      include_screenshot: false,
    });
    assert.notEqual(read.degraded, true, `dialog "${dialog.title}" degraded: ${read.degraded_reason}`);
    const elements = read.elements as Structured[];
    return elements.some((e) => e.role === "push button" && e.label === "Cancel") ? read : null;
  }, 15_000);
  assert.ok(state.element_count >= minElements, `dialog "${dialog.title}": ${state.element_count} elements`);
  const mainState = await driver.ok("get_window_state", { pid, window_id: main, include_screenshot: false });
  assert.notEqual(mainState.degraded, true, `main window degraded: ${mainState.degraded_reason}`);
  assert.ok(mainState.element_count > 5);
  // The reader names toplevels by their accessible names ("Question" for a message dialog titled otherwise).
  const names = await independentToplevels(pid);
  assert.equal(
    names.length,
    2,
    `the independent reader sees the main window and the dialog: ${JSON.stringify(names)}`,
  );
  if (/Save As|Open/.test(dialog.title)) assert.ok(names.includes(dialog.title), JSON.stringify(names));
  return state;
}

function button(state: Structured, label: RegExp): Structured {
  const found = (state.elements as Structured[]).find((e) => e.role === "push button" && label.test(e.label));
  assert.ok(
    found,
    `a ${label} button among ${(state.elements as Structured[]).map((e) => e.label).join(", ")}`,
  );
  return found;
}

async function closed(driver: TestDriver, pid: number, dialog: Structured): Promise<void> {
  await waitFor(`"${dialog.title}" to close`, async () => {
    return (await windowsOf(driver, pid)).some((w) => w.window_id === dialog.window_id) ? null : true;
  }, 15_000);
}

Deno.test({
  name:
    "modal dialogs opened through the driver leave mousepad answering the driver and other AT-SPI clients",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await leaveRegistryGhost();
    await using driver = await startTestDriver();
    const launched = await driver.ok("launch_app", { launch_path: "mousepad" });
    const pid = launched.pid as number;
    try {
      const main = (launched.windows[0] ?? await waitFor("mousepad's window", async () => {
        return (await windowsOf(driver, pid))[0] ?? null;
      }, 15_000)).window_id as number;
      const mainState = async () =>
        await waitFor("mousepad's toolbar", async () => {
          // Closed menus fold to one line: expand them so the menu and toolbar items are listed.
          const state = await driver.ok("get_window_state", { pid, window_id: main, expand: "all" });
          return (state.elements as Structured[]).some((e) => e.label === "Save As...") ? state : null;
        }, 15_000);

      await t.step("Save As from the menu (invoke_menu)", async () => {
        const probe = await driver.call("invoke_menu", { pid, window_id: main, path: ["File", "(list)"] });
        const available = (probe.structuredContent as Structured).available as string[];
        const saveAs = available.find((name) => name.trim() === "Save As...");
        assert.ok(saveAs, `File menu items: ${available.join(", ")}`);
        await driver.ok("invoke_menu", { pid, window_id: main, path: ["File", saveAs] });
        const dialog = await dialogOf(driver, pid, main, /^Save As$/);
        const state = await checkAnswering(driver, pid, main, dialog, 10);
        await driver.ok("click", { element_token: button(state, /^Cancel$/).element_token });
        await closed(driver, pid, dialog);
      });

      await t.step("Open from the toolbar by element token", async () => {
        const state = await mainState();
        const open = (state.elements as Structured[]).find((e) => e.label === "Open...")!;
        await driver.ok("click", { element_token: open.element_token });
        const dialog = await dialogOf(driver, pid, main, /^Open/);
        await checkAnswering(driver, pid, main, dialog, 10);
        // Escape on the keyboard: the key goes through the app's accessibility key handling too.
        await driver.ok("press_key", {
          target: { kind: "window", pid, window_id: dialog.window_id },
          key: "Escape",
        });
        await closed(driver, pid, dialog);
      });

      await t.step("Save As by clicking its menu item's element token", async () => {
        const state = await mainState();
        const file = (state.elements as Structured[]).find((e) => e.role === "menu" && e.label === "File")!;
        await driver.ok("click", { element_token: file.element_token });
        // The open menu's items are showing, so they are actionable elements now.
        const saveAs = await waitFor("the File menu's items", async () => {
          const opened = await driver.ok("get_window_state", {
            pid,
            window_id: main,
            include_screenshot: false,
          });
          return (opened.elements as Structured[]).find((e) =>
            e.role === "menu item" && e.label.trim() === "Save As..."
          ) ?? null;
        }, 15_000);
        await driver.ok("click", { element_token: saveAs.element_token });
        const dialog = await dialogOf(driver, pid, main, /^Save As$/);
        const dialogState = await checkAnswering(driver, pid, main, dialog, 10);
        await driver.ok("click", { element_token: button(dialogState, /^Cancel$/).element_token });
        await closed(driver, pid, dialog);
      });

      await t.step("the save-changes message dialog from File > Close Window", async () => {
        const state = await mainState();
        const editor = (state.elements as Structured[]).find((e) => e.role === "text")!;
        await driver.ok("type_text", { element_token: editor.element_token, text: "unsaved words" });
        const probe = await driver.call("invoke_menu", { pid, window_id: main, path: ["File", "(list)"] });
        const available = (probe.structuredContent as Structured).available as string[];
        const close = available.find((name) => name.trim() === "Close Window");
        assert.ok(close, `File menu items: ${available.join(", ")}`);
        await driver.ok("invoke_menu", { pid, window_id: main, path: ["File", close] });
        const dialog = await dialogOf(driver, pid, main, /.*/);
        const dialogState = await checkAnswering(driver, pid, main, dialog, 3);
        await driver.ok("click", { element_token: button(dialogState, /^Cancel$/).element_token });
        await closed(driver, pid, dialog);
        // Cancelled: the window and its text are still there.
        const after = await driver.ok("get_window_state", {
          pid,
          window_id: main,
          include_screenshot: false,
        });
        const text = (after.elements as Structured[]).find((e) => e.role === "text");
        assert.equal(text?.value, "unsaved words");
      });
    } finally {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
  },
});
