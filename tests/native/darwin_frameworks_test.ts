/**
 * The macOS back end on the real frameworks. These run only on a Mac (the
 * `macos-latest` job of .github/workflows/platforms.yml); elsewhere they are ignored.
 * They need no privacy grant: what a grant would allow is asserted as a refusal
 * naming the grant when it is missing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CoreFoundation } from "../../src/backends/darwin/cf.ts";
import { systemFrameworks } from "../../src/backends/darwin/frameworks.ts";
import { createDarwinBackend } from "../../src/backends/darwin/mod.ts";

const ignore = Deno.build.os !== "darwin";

Deno.test({
  name: "darwin frameworks: real CoreFoundation round-trips strings, numbers and arrays",
  ignore,
  fn() {
    const cf = new CoreFoundation(systemFrameworks());
    using text = cf.string("Grüße 🍎");
    assert.equal(cf.toString(text.ref), "Grüße 🍎");
    using number = cf.number(2.5);
    assert.equal(cf.toNumber(number.ref), 2.5);
    using array = cf.array([text.ref, number.ref]);
    assert.equal(cf.items(array.ref).length, 2);
    cf.close();
  },
});

Deno.test({
  name: "darwin frameworks: displays, the pointer and the window list answer without a grant",
  ignore,
  async fn() {
    const backend = createDarwinBackend();
    try {
      const displays = await backend.screen.displays();
      assert.ok(displays.length >= 1);
      assert.ok(displays[0].primary);
      assert.ok(displays[0].bounds.width > 0 && displays[0].scaleFactor >= 1);
      const cursor = await backend.screen.cursorPosition();
      assert.equal(typeof cursor.x, "number");
      const windows = await backend.windows.list();
      assert.ok(windows.every((w) => w.windowId > 0 && w.pid !== null));
      const apps = await backend.apps.listApps();
      assert.ok(apps.some((a) => a.bundleId === "com.apple.finder" && a.running), "Finder runs");
      const processes = await backend.apps.listProcesses();
      assert.ok(processes.some((p) => p.pid === Deno.pid));
      assert.ok(await backend.apps.isAlive(Deno.pid));
    } finally {
      await backend.close();
    }
  },
});

Deno.test({
  name: "darwin frameworks: capture works or names the missing Screen Recording grant",
  ignore,
  async fn() {
    const backend = createDarwinBackend();
    try {
      const result = await backend.screen.captureDisplay("primary").catch((error) => error);
      if (result instanceof Error) {
        assert.match((result as { code?: string }).code ?? "", /permission_denied|unsupported_platform/);
      } else {
        assert.ok(result.width > 0 && result.data.length === result.width * result.height * 4);
      }
      const checks = await backend.permissions();
      assert.deepEqual(checks.map((c) => c.name), [
        "accessibility",
        "screen_recording",
        "window_server",
        "capture_api",
        "clipboard",
      ]);
    } finally {
      await backend.close();
    }
  },
});

Deno.test({
  name: "darwin frameworks: the pasteboard round-trips text",
  ignore,
  async fn() {
    const backend = createDarwinBackend();
    try {
      const before = await backend.clipboard.read({ text: true, image: false });
      await backend.clipboard.writeText("cua-driver 🍎 smoke");
      assert.equal((await backend.clipboard.read({ text: true, image: false })).text, "cua-driver 🍎 smoke");
      if (before.text !== null) await backend.clipboard.writeText(before.text);
    } finally {
      await backend.close();
    }
  },
});
