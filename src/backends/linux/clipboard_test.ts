import assert from "node:assert/strict";
import { DriverError } from "../../ports/errors.ts";
import {
  SIZEOF_XEVENT,
  X,
  x11,
  XEventLayout,
  XSelectionEventLayout,
  XSelectionRequestEventLayout,
} from "../../../ffi/linux/x11.ts";
import { X11Clipboard } from "./clipboard.ts";
import { encodeTarget, offeredTargets, SelectionOwner } from "./x11/clipboard_owner.ts";
import { SelectionReader } from "./x11/clipboard_reader.ts";
import { XConnection } from "./x11/connection.ts";
import { getProperty } from "./x11/properties.ts";

const DISPLAY = Deno.env.get("DISPLAY") ?? "";
const noDisplay = DISPLAY === "";
const PYTHON = "/usr/bin/python3";
const GTK_PRELUDE = [
  "import sys, gi",
  "gi.require_version('Gtk', '3.0')",
  "from gi.repository import Gtk, Gdk, GdkPixbuf, GLib",
  "cb = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)",
].join("\n");

/** Runs a GTK script to completion and returns its stdout. */
async function gtkRun(script: string): Promise<string> {
  const output = await new Deno.Command(PYTHON, {
    args: ["-c", `${GTK_PRELUDE}\n${script}`],
    env: { DISPLAY },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return new TextDecoder().decode(output.stdout);
}

/** Starts a GTK script that takes the clipboard, waits for its "ready" line, runs `body`, then stops it. */
async function withGtkOwner(script: string, body: () => Promise<void>): Promise<void> {
  const child = new Deno.Command(PYTHON, {
    args: [
      "-c",
      `${GTK_PRELUDE}\n${script}\nprint('ready', flush=True)\nGLib.timeout_add_seconds(20, Gtk.main_quit)\nGtk.main()`,
    ],
    env: { DISPLAY },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  try {
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /ready/);
    await body();
  } finally {
    reader.releaseLock();
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel();
  }
}

async function png(args: string[]): Promise<Uint8Array> {
  const output = await new Deno.Command("convert", { args: [...args, "png:-"], stdout: "piped" }).output();
  assert.equal(output.code, 0);
  return output.stdout;
}

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

Deno.test("offeredTargets lists text, image and file flavours", () => {
  assert.deepEqual(offeredTargets({ kind: "image", png: new Uint8Array() }), ["image/png"]);
  assert.ok(offeredTargets({ kind: "text", text: "" }).includes("UTF8_STRING"));
  const files = offeredTargets({ kind: "files", paths: ["/tmp/a"] });
  for (const type of ["text/uri-list", "x-special/gnome-copied-files", "UTF8_STRING", "STRING"]) {
    assert.ok(files.includes(type), type);
  }
});

Deno.test("encodeTarget encodes file lists, Latin-1 STRING and refuses unknown targets", () => {
  const decode = (data: { bytes: Uint8Array } | null) => new TextDecoder().decode(data!.bytes);
  const files = { kind: "files", paths: ["/tmp/a b", "/tmp/c"] } as const;
  assert.equal(decode(encodeTarget(files, "text/uri-list")), "file:///tmp/a%20b\r\nfile:///tmp/c\r\n");
  assert.equal(
    decode(encodeTarget(files, "x-special/gnome-copied-files")),
    "copy\nfile:///tmp/a%20b\nfile:///tmp/c",
  );
  assert.equal(decode(encodeTarget(files, "UTF8_STRING")), "/tmp/a b\n/tmp/c");
  const latin = encodeTarget({ kind: "text", text: "é✓" }, "STRING")!;
  assert.equal(latin.type, "STRING");
  assert.deepEqual([...latin.bytes], [0xe9, 0x3f]);
  assert.equal(encodeTarget({ kind: "text", text: "x" }, "TEXT")!.type, "UTF8_STRING");
  assert.equal(encodeTarget({ kind: "text", text: "x" }, "image/png"), null);
});

Deno.test("X11Clipboard rejects relative paths and non-PNG images before touching the display", async () => {
  const clipboard = new X11Clipboard(":none");
  await assert.rejects(
    clipboard.writeFiles(["relative.txt"]),
    (e) => (e as DriverError).code === "invalid_arguments",
  );
  await assert.rejects(clipboard.writeFiles([]), (e) => (e as DriverError).code === "invalid_arguments");
  await assert.rejects(
    clipboard.writeImage(new Uint8Array([1, 2, 3])),
    (e) => (e as DriverError).code === "invalid_arguments",
  );
});

Deno.test("X11Clipboard reports an unreachable display as clipboard_unavailable", async () => {
  const clipboard = new X11Clipboard(":987654");
  await assert.rejects(
    clipboard.read({ text: true, image: false }),
    (e) => (e as DriverError).code === "clipboard_unavailable",
  );
});

Deno.test({
  name: "X11Clipboard writes text that a second connection reads back",
  ignore: noDisplay,
  async fn() {
    await using writer = new X11Clipboard(DISPLAY);
    await using reader = new X11Clipboard(DISPLAY);
    for (const text of ["plain ascii", "héllo ✓ 日本 🎉"]) {
      const types = await writer.writeText(text);
      assert.ok(types.includes("UTF8_STRING"));
      const content = await reader.read({ text: true, image: false });
      assert.equal(content.text, text);
      assert.deepEqual(content.types, types);
      assert.equal(content.imagePng, null);
      // The owner answers from memory.
      assert.equal((await writer.read({ text: true, image: false })).text, text);
    }
  },
});

Deno.test({
  name: "X11Clipboard serves text to GTK and reads text GTK owns",
  ignore: noDisplay,
  async fn() {
    await using clipboard = new X11Clipboard(DISPLAY);
    await clipboard.writeText("héllo ✓ 日本 🎉");
    assert.equal((await gtkRun("print(cb.wait_for_text())")).trim(), "héllo ✓ 日本 🎉");
    await withGtkOwner("cb.set_text('from gtk ✓ 🎉', -1)\ncb.store()", async () => {
      const content = await clipboard.read({ text: true, image: false });
      assert.equal(content.text, "from gtk ✓ 🎉");
      assert.ok(content.types.includes("UTF8_STRING"));
      assert.ok(!content.types.includes("TARGETS"));
    });
  },
});

Deno.test({
  name: "X11Clipboard round-trips small and INCR-sized PNG images",
  ignore: noDisplay,
  async fn() {
    await using writer = new X11Clipboard(DISPLAY);
    await using reader = new X11Clipboard(DISPLAY);
    const small = await png(["-size", "40x30", "xc:red"]);
    const large = await png(["-size", "820x800", "-depth", "8", "xc:", "+noise", "Random"]);
    assert.ok(large.length > 1_500_000, `large PNG is ${large.length} bytes`);
    for (const image of [small, large]) {
      assert.deepEqual(await writer.writeImage(image), ["image/png"]);
      const content = await reader.read({ text: true, image: true });
      assert.deepEqual(content.types, ["image/png"]);
      assert.equal(content.text, null);
      assert.deepEqual(content.imagePng, image);
    }
    // GTK reads the large image over INCR too.
    const size = await gtkRun(
      "d = cb.wait_for_contents(Gdk.Atom.intern('image/png', False))\nprint(len(d.get_data()))",
    );
    assert.equal(Number(size.trim()), large.length);
  },
});

Deno.test({
  name: "X11Clipboard reads a large image GTK owns over INCR",
  ignore: noDisplay,
  async fn() {
    const path = await Deno.makeTempFile({ suffix: ".png" });
    try {
      await Deno.writeFile(path, await png(["-size", "820x800", "-depth", "8", "xc:", "+noise", "Random"]));
      await using clipboard = new X11Clipboard(DISPLAY);
      await withGtkOwner(
        `cb.set_image(GdkPixbuf.Pixbuf.new_from_file(${JSON.stringify(path)}))`,
        async () => {
          const content = await clipboard.read({ text: false, image: true });
          assert.ok(content.types.includes("image/png"));
          assert.ok(content.imagePng !== null && content.imagePng.length > 262_144);
          assert.deepEqual(pngSize(content.imagePng), { width: 820, height: 800 });
        },
      );
    } finally {
      await Deno.remove(path);
    }
  },
});

Deno.test({
  name: "X11Clipboard writes file paths as a uri-list",
  ignore: noDisplay,
  async fn() {
    await using writer = new X11Clipboard(DISPLAY);
    await using reader = new X11Clipboard(DISPLAY);
    const paths = ["/tmp/one file.txt", "/etc/hostname"];
    const types = await writer.writeFiles(paths);
    assert.ok(types.includes("text/uri-list") && types.includes("x-special/gnome-copied-files"));
    const content = await reader.read({ text: true, image: true });
    assert.deepEqual(content.types, types);
    assert.equal(content.text, paths.join("\n"));
    const uris = await gtkRun("print('|'.join(cb.wait_for_uris()))");
    assert.equal(uris.trim(), "file:///tmp/one%20file.txt|file:///etc/hostname");
  },
});

Deno.test({
  name: "X11Clipboard gives up content to a new owner and is empty after dispose",
  ignore: noDisplay,
  async fn() {
    const first = new X11Clipboard(DISPLAY);
    await using second = new X11Clipboard(DISPLAY);
    await first.writeText("first");
    await second.writeText("second");
    assert.equal((await first.read({ text: true, image: false })).text, "second");
    await first.writeText("again");
    await first.dispose();
    const content = await second.read({ text: true, image: false });
    const managed = (await gtkRun("print(Gdk.Display.get_default().supports_clipboard_persistence())"))
      .trim();
    if (managed === "False") assert.deepEqual(content, { types: [], text: null, imagePng: null });
  },
});

/**
 * A minimal ICCCM clipboard manager for the hand-off test: owns CLIPBOARD_MANAGER, and on
 * SAVE_TARGETS copies the UTF8_STRING text, answers, then owns CLIPBOARD with the copy.
 */
function startTestManager(): { saved: Promise<string>; stop: () => void } {
  const conn = XConnection.open(DISPLAY);
  const display = conn.unsafeDisplay();
  const window = x11.symbols.XCreateSimpleWindow(display, conn.root, -10, -10, 1, 1, 0, 0n, 0n);
  x11.symbols.XSelectInput(display, window, X.PropertyChangeMask);
  const clipboard = conn.atom("CLIPBOARD");
  const owner = new SelectionOwner(conn, window, clipboard);
  const event = new Uint8Array(SIZEOF_XEVENT);
  const view = new DataView(event.buffer);
  let request: { requestor: bigint; property: bigint; time: bigint } | null = null;
  function pump(): void {
    while (x11.symbols.XPending(display) > 0) {
      x11.symbols.XNextEvent(display, event);
      const type = view.getInt32(XEventLayout.type, true);
      const L = XSelectionRequestEventLayout;
      if (type === X.SelectionRequest && view.getBigUint64(L.selection, true) !== clipboard) {
        request = {
          requestor: view.getBigUint64(L.requestor, true),
          property: view.getBigUint64(L.property, true),
          time: view.getBigUint64(L.time, true),
        };
      } else if (type === X.SelectionRequest) owner.onSelectionRequest(view);
      else if (type === X.SelectionNotify) reader.onSelectionNotify(view);
      else if (type === X.PropertyNotify && view.getBigUint64(XEventLayout.window, true) === window) {
        reader.onOwnProperty(view);
      } else if (type === X.PropertyNotify) owner.onRequestorProperty(view);
    }
  }
  const reader = new SelectionReader(conn, window, pump);
  x11.symbols.XSetSelectionOwner(display, conn.atom("CLIPBOARD_MANAGER"), window, X.CurrentTime);
  x11.symbols.XSync(display, X.False);
  const timer = setInterval(pump, 5);
  const saved = (async () => {
    const deadline = Date.now() + 3000;
    while (!request) {
      if (Date.now() > deadline) throw new Error("No SAVE_TARGETS request reached the test manager");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const { requestor, property, time } = request;
    const data = await reader.convert(clipboard, conn.atom("UTF8_STRING"), time, 1000);
    const text = new TextDecoder().decode(data!.bytes);
    const answer = new Uint8Array(SIZEOF_XEVENT);
    const answerView = new DataView(answer.buffer);
    const S = XSelectionEventLayout;
    answerView.setInt32(XEventLayout.type, X.SelectionNotify, true);
    answerView.setBigUint64(S.requestor, requestor, true);
    answerView.setBigUint64(S.selection, conn.atom("CLIPBOARD_MANAGER"), true);
    answerView.setBigUint64(S.target, conn.atom("SAVE_TARGETS"), true);
    answerView.setBigUint64(S.property, property, true);
    answerView.setBigUint64(S.time, time, true);
    x11.symbols.XSendEvent(display, requestor, X.False, X.NoEventMask, answer);
    owner.own({ kind: "text", text }, X.CurrentTime);
    return text;
  })();
  return {
    saved,
    stop() {
      clearInterval(timer);
      x11.symbols.XDestroyWindow(display, window);
      conn.close();
    },
  };
}

Deno.test({
  name: "X11Clipboard hands its content to a clipboard manager on dispose",
  ignore: noDisplay,
  async fn() {
    const manager = startTestManager();
    try {
      const clipboard = new X11Clipboard(DISPLAY);
      await clipboard.writeText("kept ✓");
      await clipboard.dispose();
      assert.equal(await manager.saved, "kept ✓");
      await using reader = new X11Clipboard(DISPLAY);
      assert.equal((await reader.read({ text: true, image: false })).text, "kept ✓");
    } finally {
      manager.stop();
    }
  },
});

Deno.test({
  name: "X11Clipboard answers MULTIPLE pair by pair and refuses unknown targets",
  ignore: noDisplay,
  async fn() {
    await using clipboard = new X11Clipboard(DISPLAY);
    await clipboard.writeText("multi ✓");
    using conn = XConnection.open(DISPLAY);
    const display = conn.unsafeDisplay();
    const window = x11.symbols.XCreateSimpleWindow(display, conn.root, -10, -10, 1, 1, 0, 0n, 0n);
    try {
      const [pairs, first, second] = [
        conn.atom("CUA_TEST_PAIRS"),
        conn.atom("CUA_TEST_A"),
        conn.atom("CUA_TEST_B"),
      ];
      const list = BigUint64Array.of(conn.atom("UTF8_STRING"), first, conn.atom("image/png"), second);
      x11.symbols.XChangeProperty(
        display,
        window,
        pairs,
        conn.atom("ATOM_PAIR"),
        32,
        X.PropModeReplace,
        new Uint8Array(list.buffer),
        4,
      );
      x11.symbols.XConvertSelection(
        display,
        conn.atom("CLIPBOARD"),
        conn.atom("MULTIPLE"),
        pairs,
        window,
        X.CurrentTime,
      );
      x11.symbols.XFlush(display);
      const event = new Uint8Array(SIZEOF_XEVENT);
      const deadline = Date.now() + 1000;
      while (!x11.symbols.XCheckTypedWindowEvent(display, window, X.SelectionNotify, event)) {
        assert.ok(Date.now() < deadline, "no SelectionNotify for MULTIPLE");
        await new Promise((resolve) => setTimeout(resolve, 5));
        x11.symbols.XSync(display, X.False);
      }
      assert.equal(new DataView(event.buffer).getBigUint64(XSelectionEventLayout.property, true), pairs);
      const answer = getProperty(conn, window, pairs)!;
      assert.deepEqual(answer.longs, [list[0], first, list[2], X.None]);
      assert.equal(new TextDecoder().decode(getProperty(conn, window, first)!.bytes), "multi ✓");
    } finally {
      x11.symbols.XDestroyWindow(display, window);
    }
  },
});
