import assert from "node:assert/strict";
import { X, x11 } from "../../../../ffi/linux/x11.ts";
import { XConnection } from "./connection.ts";
import { getProperty, windowTitle } from "./properties.ts";

const noDisplay = (Deno.env.get("DISPLAY") ?? "") === "";
/** A window id no client holds (resource ids of client 0x1ff, which does not exist). */
const NO_WINDOW = 0x3fe00001n;

Deno.test({
  name: "XConnection reads the default screen, root and size as Xlib's own functions report them",
  ignore: noDisplay,
  fn() {
    using conn = XConnection.open();
    const display = conn.unsafeDisplay();
    const screen = x11.symbols.XDefaultScreen(display);
    assert.equal(conn.screen, screen);
    assert.equal(conn.root, x11.symbols.XRootWindow(display, screen));
    assert.deepEqual(conn.screenSize(), {
      width: x11.symbols.XDisplayWidth(display, screen),
      height: x11.symbols.XDisplayHeight(display, screen),
    });
    assert.ok(conn.screenSize().width > 0);
  },
});

Deno.test({
  name: "XConnection.trapReply returns a reply request's own error without an extra round trip",
  ignore: noDisplay,
  fn() {
    using conn = XConnection.open();
    const atom = conn.atom("WM_NAME");
    const bad = conn.trapReply(() =>
      x11.symbols.XGetWindowProperty(
        conn.unsafeDisplay(),
        NO_WINDOW,
        atom,
        0n,
        1n,
        X.False,
        X.AnyPropertyType,
        new BigUint64Array(1),
        new Int32Array(1),
        new BigUint64Array(1),
        new BigUint64Array(1),
        new BigUint64Array(1),
      )
    );
    assert.equal(bad.errors.length, 1, "the BadWindow arrives with the call");
    assert.equal(bad.errors[0].resourceId, NO_WINDOW);
    // The error does not leak into the next call, and readers report absence as null.
    assert.equal(getProperty(conn, NO_WINDOW, atom), null);
    assert.equal(conn.windowAttributes(NO_WINDOW), null);
    assert.equal(conn.rootOrigin(NO_WINDOW), null);
    assert.equal(conn.childrenOf(NO_WINDOW), null);
    const good = conn.trapReply(() => conn.childrenOf(conn.root));
    assert.deepEqual(good.errors, []);
    assert.ok(Array.isArray(good.value));
    assert.equal(typeof windowTitle(conn, conn.root), "string");
    assert.equal(conn.alive, true);
  },
});
