/**
 * Covered-window capture (XComposite redirection of every top-level window) and when the Linux
 * back end turns it on: a server at start, a one-shot call at its first window capture. Turning it
 * on and off (when the connection closes) makes the X server re-render every window, so a one-shot
 * call that captures no window must leave it off. The X server itself is the reader: a separate
 * client names the fixture's window pixmap, which the server refuses (BadMatch) for a window that
 * is not redirected.
 */
import assert from "node:assert/strict";
import { startFixture } from "../_helpers/fixture_app.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { peekBgrx } from "../../src/lib/image/bgrx_image.ts";
import { createBackend } from "../../src/backends/mod.ts";

const ignore = ignoreWithoutDesktop() || Deno.build.os !== "linux";

/**
 * Exit 0 when the top-level window holding argv[1] (the window manager's frame: a child of the
 * root, which is what gets redirected) is redirected, 3 when the server refuses its pixmap.
 */
const NAMES_PIXMAP = `
import ctypes, sys
x = ctypes.CDLL("libX11.so.6"); c = ctypes.CDLL("libXcomposite.so.1")
x.XOpenDisplay.restype = ctypes.c_void_p
failed = []
HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: failed.append(1) or 0)
x.XSetErrorHandler(HANDLER)
d = ctypes.c_void_p(x.XOpenDisplay(None))
window = ctypes.c_ulong(int(sys.argv[1]))
root, parent = ctypes.c_ulong(), ctypes.c_ulong()
children, count = ctypes.c_void_p(), ctypes.c_uint()
while True:
    x.XQueryTree(d, window, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(children), ctypes.byref(count))
    if children: x.XFree(children)
    if parent.value == root.value: break
    window = ctypes.c_ulong(parent.value)
c.XCompositeNameWindowPixmap.restype = ctypes.c_ulong
c.XCompositeNameWindowPixmap(d, window)
x.XSync(d, 0)
sys.exit(3 if failed else 0)
`;

/** Whether the X server keeps `window`'s contents off screen (it is redirected), asked by another client. */
async function redirected(window: number): Promise<boolean> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", NAMES_PIXMAP, String(window)],
    env: desktopEnv(),
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(out.code === 0 || out.code === 3, new TextDecoder().decode(out.stderr));
  return out.code === 0;
}

Deno.test({
  name: "a one-shot back end redirects windows at its first window capture; a server's at start",
  ignore,
  async fn() {
    const app = await startFixture(desktopEnv(), { title: "Offscreen capture" });
    try {
      assert.equal(await redirected(app.xid), false, "nothing redirects the fixture before a driver runs");
      const oneShot = await createBackend("linux", { desktop: "system", oneShot: true });
      try {
        await oneShot.screen.displays();
        await oneShot.windows.list();
        assert.equal(await redirected(app.xid), false, "a one-shot call that captured no window");
        const { image } = await oneShot.screen.captureWindow(app.xid);
        assert.ok(image.width > 0 && image.height > 0);
        assert.equal(await redirected(app.xid), true, "after its first window capture");
      } finally {
        await oneShot.close();
      }
      assert.equal(await redirected(app.xid), false, "redirection ends with the connection");
      const server = await createBackend("linux", { desktop: "system" });
      try {
        assert.equal(await redirected(app.xid), true, "a server redirects at start");
      } finally {
        await server.close();
      }
    } finally {
      await app.stop();
    }
  },
});

Deno.test({
  name: "captureWindow puts the pixels in the caller's buffer when it fits, and in a new one otherwise",
  ignore,
  async fn() {
    const app = await startFixture(desktopEnv(), { title: "Capture into" });
    const backend = await createBackend("linux", { desktop: "system", oneShot: true });
    try {
      // The app may still be drawing (a caret blinks): the buffer's frame must equal a fresh capture
      // taken just before or just after it, in one of a few tries.
      const bytesOf = async (into?: Uint8Array) => {
        const { image } = await backend.screen.captureWindow(app.xid, into ? { into } : undefined);
        return peekBgrx(image)!;
      };
      let matched = false;
      for (let attempt = 0; attempt < 20 && !matched; attempt++) {
        const before = await bytesOf();
        const into = new Uint8Array(before.length).fill(0xab);
        const frame = await bytesOf(into);
        assert.equal(frame, into, "the caller's buffer holds the frame");
        const after = await bytesOf();
        const equal = (a: Uint8Array, b: Uint8Array) =>
          a.length === b.length && a.every((byte, k) => byte === b[k]);
        matched = equal(frame, before) || equal(frame, after);
      }
      assert.ok(matched, "the frame in the caller's buffer is the window's, as a fresh capture reads it");
      const tooSmall = new Uint8Array(16);
      const other = (await backend.screen.captureWindow(app.xid, { into: tooSmall })).image;
      assert.notEqual(peekBgrx(other), tooSmall);
      assert.ok(tooSmall.every((byte) => byte === 0), "a buffer of another size is left alone");
    } finally {
      await backend.close();
      await app.stop();
    }
  },
});
