/**
 * App tools against a stock Debian app the project did not write (gtk3-widget-factory)
 * and clipboard tools against GTK itself, end to end. Launches, activation, geometry and
 * kills are checked with xprop, xdotool, xwininfo and /proc; the clipboard is read and
 * written by a separate GTK program, so both directions cross a real X11 selection.
 *
 * @module
 */
import assert from "node:assert/strict";
import { encodePng } from "../../src/lib/image/png.ts";
import { isAlive } from "../../src/backends/linux/os/proc_fs.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { FIXTURE_PYTHON, startFixture } from "../_helpers/fixture_app.ts";
import { pngOf, startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { activeWindow, clientList, pixelAt, type Rgb, waitFor, windowBox, x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

/** Push buttons, radio buttons and toggles gtk3-widget-factory shows on its first page. */
const WIDGET_FACTORY_ELEMENTS: [string, string][] = [
  ["radio button", "Page 1"],
  ["radio button", "Page 2"],
  ["radio button", "Page 3"],
  ["check box", "checkbutton"],
  ["toggle button", "togglebutton"],
  ["push button", "link button"],
];

/** An installed, visible desktop entry that setup.sh provides (imagemagick) and nothing runs. */
const INSTALLED_ENTRY = "/usr/share/applications/display-im6.q16.desktop";

/** Reads the CLIPBOARD with GTK in a separate process: text, URIs and the image's size and two pixels. */
const GTK_READ = `
import json, sys, gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk
cb = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
out = {"text": cb.wait_for_text(), "uris": cb.wait_for_uris(), "image": None}
image = cb.wait_for_image()
if image is not None:
    data, stride, n = image.get_pixels(), image.get_rowstride(), image.get_n_channels()
    px = lambda x, y: list(data[y * stride + x * n : y * stride + x * n + 3])
    out["image"] = {"width": image.get_width(), "height": image.get_height(),
                    "left": px(2, image.get_height() // 2), "right": px(image.get_width() - 3, image.get_height() // 2)}
sys.stdout.write(json.dumps(out))
`;

/** Owns the CLIPBOARD with GTK until stdin closes: text (argv[1]) or a two-colour image (argv[1] == "--image"). */
const GTK_OWN = `
import sys, gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import Gdk, GdkPixbuf, GLib, Gtk
cb = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
if sys.argv[1] == "--image":
    w, h = 50, 30
    row = bytes([10, 200, 30] * 25 + [240, 20, 90] * 25)
    pixbuf = GdkPixbuf.Pixbuf.new_from_bytes(GLib.Bytes.new(row * h), GdkPixbuf.Colorspace.RGB, False, 8, w, h, w * 3)
    cb.set_image(pixbuf)
else:
    cb.set_text(sys.argv[1], -1)
print("owned", flush=True)
GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, lambda *a: Gtk.main_quit())
Gtk.main()
`;

interface GtkClipboard {
  text: string | null;
  uris: string[];
  image: { width: number; height: number; left: Rgb; right: Rgb } | null;
}

async function gtkRead(): Promise<GtkClipboard> {
  return JSON.parse(await x(FIXTURE_PYTHON, "-c", GTK_READ)) as GtkClipboard;
}

/** Runs `fn` while a GTK process owns the clipboard with `value`. */
async function whileGtkOwns(value: string, fn: () => Promise<void>): Promise<void> {
  const child = new Deno.Command(FIXTURE_PYTHON, {
    args: ["-c", GTK_OWN, value],
    env: desktopEnv(),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const first = await lines.read();
    assert.equal(first.value?.trim(), "owned", "the GTK program took the clipboard");
    await fn();
  } finally {
    await child.stdin.close();
    await lines.cancel();
    await child.status;
  }
}

Deno.test({
  name: "app tools drive gtk3-widget-factory as X11 and /proc see it",
  ignore,
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using fixture = await startFixture(env, { title: "Apps tools fixture", x: 1300, y: 300 });
    let pid = 0;
    let xid = 0;

    await t.step("launch_app starts gtk3-widget-factory and returns its window, tree ready", async () => {
      const launched = await driver.ok("launch_app", { launch_path: "gtk3-widget-factory" });
      pid = launched.pid;
      assert.ok(await isAlive(pid), "the process runs");
      const argv = (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0");
      assert.match(argv[0], /gtk3-widget-factory$/);
      assert.equal(launched.running, true);
      assert.equal(launched.accessibility_ready, true);
      assert.equal(launched.windows.length, 1);
      xid = launched.windows[0].window_id;
      const wmPid = /= (\d+)/.exec(await x("xprop", "-id", String(xid), "_NET_WM_PID"));
      assert.equal(Number(wmPid?.[1]), pid, "the window's _NET_WM_PID is the launched pid");
      assert.ok((await clientList()).includes(xid), "the window manager manages the window");
    });

    await t.step("get_window_state reads the stock app's widgets and its pixels", async () => {
      const result = await driver.call("get_window_state", { pid, window_id: xid });
      const snapshot = result.structuredContent as Structured;
      assert.ok(snapshot.element_count > 50, `${snapshot.element_count} elements`);
      const elements = snapshot.elements as Structured[];
      for (const [role, label] of WIDGET_FACTORY_ELEMENTS) {
        assert.ok(elements.some((e) => e.role === role && e.label === label), `${role} "${label}"`);
      }
      const box = await windowBox(xid);
      const image = pngOf(result);
      assert.deepEqual([image.width, image.height], [box.width, box.height]);
      const page1 = elements.find((e) => e.label === "Page 1")!.frame;
      assert.ok(
        page1.x >= box.x && page1.y >= box.y && page1.x + page1.w <= box.x + box.width &&
          page1.y + page1.h <= box.y + box.height,
        `"Page 1" ${JSON.stringify(page1)} inside ${JSON.stringify(box)}`,
      );
    });

    await t.step("list_apps shows running processes and installed, not running apps", async () => {
      const { apps } = await driver.ok("list_apps");
      const byPid = (p: number) => (apps as Structured[]).find((a) => a.pid === p);
      assert.equal(byPid(fixture.pid)?.running, true, "the fixture process");
      assert.equal(byPid(pid)?.running, true, "the widget factory");

      const entry = await Deno.readTextFile(INSTALLED_ENTRY);
      const name = /^Name=(.*)$/m.exec(entry)![1];
      const exec = /^Exec=(.*)$/m.exec(entry)![1].replace(/\s*%[fFuU]/g, "");
      const installed = (apps as Structured[]).find((a) => a.bundle_id === "display-im6.q16");
      assert.ok(installed, `${INSTALLED_ENTRY} is listed`);
      assert.deepEqual(
        {
          name: installed.name,
          launch_path: installed.launch_path,
          running: installed.running,
          pid: installed.pid,
        },
        { name, launch_path: exec, running: false, pid: 0 },
      );
    });

    await t.step("bring_to_front makes the window _NET_ACTIVE_WINDOW", async () => {
      await x("xdotool", "windowactivate", "--sync", String(fixture.xid));
      assert.equal(await activeWindow(), fixture.xid, "the fixture is active first");
      const result = await driver.ok("bring_to_front", { pid, window_id: xid });
      assert.equal(await activeWindow(), xid);
      assert.equal(result.prior_active, fixture.xid);
      const list = await driver.ok("list_windows");
      const z = (id: number) => (list.windows as Structured[]).find((w) => w.window_id === id)!.z_index;
      assert.ok(z(xid) > z(fixture.xid), "and raises it above the fixture");
    });

    await t.step("set_window_frame confirms only what xdotool and xwininfo read back", async () => {
      const wanted = { x: 30, y: 60, width: 1400, height: 800 };
      const result = await driver.ok("set_window_frame", { pid, window_id: xid, ...wanted });
      assert.equal(result.effect, "confirmed");
      const geometry = await x("xdotool", "getwindowgeometry", String(xid));
      assert.match(geometry, /Position: 30,60\b/);
      assert.match(geometry, /Geometry: 1400x800\b/);
      const box = await windowBox(xid);
      assert.deepEqual({ x: box.x, y: box.y, width: box.width, height: box.height }, wanted);

      // Smaller than the app's minimum size: the window manager cannot honour it.
      const tooSmall = await driver.ok("set_window_frame", {
        pid,
        window_id: xid,
        x: 30,
        y: 60,
        width: 300,
        height: 200,
      });
      const after = await windowBox(xid);
      assert.notDeepEqual([after.width, after.height], [300, 200], "GTK refuses to go below its minimum");
      assert.notEqual(tooSmall.effect, "confirmed");
    });

    await t.step("kill_app refuses a process the driver did not launch", async () => {
      await driver.fails("kill_app", { pid: fixture.pid }, "foreign_process_termination_denied");
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(await isAlive(fixture.pid), "the fixture still runs");
      assert.ok(!(await fixture.readJournal()).some((e) => e.event === "exit"), "and never started to exit");
    });

    await t.step("kill_app ends the launched process and its window", async () => {
      await driver.ok("kill_app", { pid });
      await waitFor("the process to be gone", async () => (await isAlive(pid)) ? null : true, 2_000);
      await waitFor(
        "the window to be unmanaged",
        async () => (await clientList()).includes(xid) ? null : true,
      );
      await driver.fails("kill_app", { pid }, "process_not_found");
      await driver.fails("get_window_state", { pid, window_id: xid }, "window_target_not_found");
    });

    await t.step("launch_app of an unknown app is app_not_found and starts nothing", async () => {
      const before = await clientList();
      const error = await driver.fails("launch_app", { name: "No Such App cua-test" }, "app_not_found");
      assert.equal(error.field, "name");
      await driver.fails("launch_app", { launch_path: "/nonexistent/cua-test-app --flag" }, "app_not_found");
      assert.deepEqual(await clientList(), before);
    });
  },
});

Deno.test({
  name: "clipboard tools exchange text, images and files with GTK",
  ignore,
  async fn(t) {
    await using driver = await startTestDriver();
    const dir = await Deno.makeTempDir({ prefix: "cua-clipboard-" });
    try {
      await t.step("clipboard_write text is what GTK reads, exactly", async () => {
        const text = "héllo ✓ 世界 🎉\nsecond line\ttab";
        const result = await driver.ok("clipboard_write", { text });
        assert.equal(result.written_type, "text");
        assert.equal((await gtkRead()).text, text);
      });

      await t.step("clipboard_read returns the text GTK set", async () => {
        const text = "set by GTK: ☃ Ünïcödé ✓";
        await whileGtkOwns(text, async () => {
          const result = await driver.ok("clipboard_read", { include_text: true });
          assert.equal(result.text, text);
          assert.ok(result.types.includes("UTF8_STRING"), result.types.join(","));
          assert.equal((await driver.ok("clipboard_read")).text, null, "no text unless asked");
        });
      });

      await t.step("clipboard_write image_path puts a PNG GTK decodes to the same pixels", async () => {
        const width = 37, height = 21, data = new Uint8Array(width * height * 4);
        for (let i = 0; i < width * height; i++) {
          const left = i % width < width / 2;
          data.set(left ? [200, 30, 40, 255] : [20, 60, 220, 255], i * 4);
        }
        const path = `${dir}/two.png`;
        await Deno.writeFile(path, await encodePng({ width, height, data }));
        assert.equal((await driver.ok("clipboard_write", { image_path: path })).written_type, "image");
        const seen = await gtkRead();
        assert.deepEqual(seen.image, { width, height, left: [200, 30, 40], right: [20, 60, 220] });

        const read = await driver.call("clipboard_read", { include_image: true });
        assert.equal(read.structuredContent?.has_image, true);
        const image = pngOf(read);
        assert.deepEqual([image.width, image.height], [width, height]);
        assert.deepEqual(pixelAt(image, 2, 10), [200, 30, 40]);
        assert.deepEqual(pixelAt(image, width - 3, 10), [20, 60, 220]);
      });

      await t.step("clipboard_read include_image returns the image GTK set", async () => {
        await whileGtkOwns("--image", async () => {
          const read = await driver.call("clipboard_read", { include_image: true });
          const image = pngOf(read);
          assert.deepEqual([image.width, image.height], [50, 30]);
          assert.deepEqual(pixelAt(image, 5, 15), [10, 200, 30]);
          assert.deepEqual(pixelAt(image, 45, 15), [240, 20, 90]);
        });
      });

      await t.step("clipboard_write file_path offers the file's URI", async () => {
        const path = `${dir}/notes file.txt`;
        await Deno.writeTextFile(path, "x");
        assert.equal((await driver.ok("clipboard_write", { file_path: path })).written_type, "file_url");
        const seen = await gtkRead();
        assert.deepEqual(seen.uris, [`file://${dir}/notes%20file.txt`]);
      });

      await t.step("a refused clipboard_write leaves the clipboard as it was", async () => {
        await driver.ok("clipboard_write", { text: "keep me" });
        const notPng = `${dir}/fake.png`;
        await Deno.writeTextFile(notPng, "not a png");
        await driver.fails("clipboard_write", { image_path: notPng }, "invalid_arguments");
        await driver.fails("clipboard_write", { text: "a", file_path: notPng }, "invalid_arguments");
        await driver.fails("clipboard_write", { file_path: `${dir}/missing` }, "file_error");
        assert.equal((await gtkRead()).text, "keep me");
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
