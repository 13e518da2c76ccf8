/**
 * Captures a window of the test process itself through the real back end and checks
 * its pixels (macOS only; the `macos-native` job). The window is made here with AppKit
 * through a test-local libobjc binding: a titled 240x160 window whose background is
 * sRGB (0.9, 0.1, 0.1). The capture goes the way the driver captures on this macOS
 * (CoreGraphics up to 14, screencapture from 15), so it needs Screen Recording; without
 * it the test is skipped and the report names the missing grant.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CGRECT, cgRect } from "../../ffi/darwin/geometry.ts";
import { createDarwinBackend } from "../../src/backends/darwin/mod.ts";
import { systemFrameworks } from "../../src/backends/darwin/frameworks.ts";
import { CoreFoundation } from "../../src/backends/darwin/cf.ts";
import { cell, skipped } from "./_report.ts";

const darwin = Deno.build.os === "darwin";
const NAME = "capture the test process's own window";
const granted = darwin && (systemFrameworks().cg.CGPreflightScreenCaptureAccess?.() ?? true);
const reason = "Screen Recording is not granted to the process that runs the tests";

function cstring(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text + "\0");
}

/** A titled window of this process filled with one colour; returns its window number and a closer. */
function openWindow(): { number: number; close: () => void } {
  Deno.dlopen("/System/Library/Frameworks/AppKit.framework/AppKit", {});
  const lib = Deno.dlopen("/usr/lib/libobjc.A.dylib", {
    objc_getClass: { parameters: ["buffer"], result: "pointer" },
    sel_registerName: { parameters: ["buffer"], result: "pointer" },
    objc_autoreleasePoolPush: { parameters: [], result: "pointer" },
    // id objc_msgSend(id, SEL)
    send: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "pointer" },
    // void objc_msgSend(id, SEL)
    sendVoid: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "void" },
    // BOOL objc_msgSend(id, SEL, NSInteger)   -[NSApplication setActivationPolicy:]
    sendPolicy: { name: "objc_msgSend", parameters: ["pointer", "pointer", "i64"], result: "bool" },
    // id objc_msgSend(id, SEL, NSRect, NSWindowStyleMask, NSBackingStoreType, BOOL)
    sendInit: {
      name: "objc_msgSend",
      parameters: ["pointer", "pointer", CGRECT, "u64", "u64", "bool"],
      result: "pointer",
    },
    // id objc_msgSend(id, SEL, CGFloat, CGFloat, CGFloat, CGFloat)   +[NSColor colorWithSRGBRed:green:blue:alpha:]
    sendColor: {
      name: "objc_msgSend",
      parameters: ["pointer", "pointer", "f64", "f64", "f64", "f64"],
      result: "pointer",
    },
    // void objc_msgSend(id, SEL, id)
    sendId: { name: "objc_msgSend", parameters: ["pointer", "pointer", "pointer"], result: "void" },
    // void objc_msgSend(id, SEL, BOOL)
    sendBool: { name: "objc_msgSend", parameters: ["pointer", "pointer", "bool"], result: "void" },
    // NSInteger objc_msgSend(id, SEL)
    sendInt: { name: "objc_msgSend", parameters: ["pointer", "pointer"], result: "i64" },
  });
  const s = lib.symbols;
  const cls = (name: string) => s.objc_getClass(cstring(name));
  const sel = (name: string) => s.sel_registerName(cstring(name));
  s.objc_autoreleasePoolPush();
  const app = s.send(cls("NSApplication"), sel("sharedApplication"));
  s.sendPolicy(app, sel("setActivationPolicy:"), 1n); // NSApplicationActivationPolicyAccessory
  s.sendVoid(app, sel("finishLaunching"));
  const allocated = s.send(cls("NSWindow"), sel("alloc"));
  // NSWindowStyleMaskTitled (1), NSBackingStoreBuffered (2).
  const window = s.sendInit(
    allocated,
    sel("initWithContentRect:styleMask:backing:defer:"),
    cgRect(320, 320, 240, 160),
    1n,
    2n,
    false,
  );
  s.sendBool(window, sel("setReleasedWhenClosed:"), false);
  // A title keeps the window list's row titled (with Screen Recording), so listing asks AX nothing of
  // this process, whose main thread is not running its run loop to answer.
  const cf = new CoreFoundation(systemFrameworks());
  using title = cf.string("cua own window");
  s.sendId(window, sel("setTitle:"), title.ref);
  const color = s.sendColor(cls("NSColor"), sel("colorWithSRGBRed:green:blue:alpha:"), 0.9, 0.1, 0.1, 1);
  s.sendId(window, sel("setBackgroundColor:"), color);
  s.sendVoid(window, sel("orderFrontRegardless"));
  s.sendVoid(window, sel("display"));
  const number = Number(s.sendInt(window, sel("windowNumber")));
  return { number, close: () => s.sendVoid(window, sel("close")) };
}

Deno.test({
  name: granted ? NAME : darwin ? skipped(NAME, reason) : NAME,
  ignore: !darwin || !granted,
  // The libraries and the window's AppKit state stay for the process.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await cell(NAME, async () => {
      const window = openWindow();
      const backend = createDarwinBackend();
      const { cf } = systemFrameworks();
      try {
        // The window server shows the window once this thread's run loop has run: until it is listed.
        let listed = false;
        for (let pass = 0; pass < 200 && !listed; pass++) {
          cf.CFRunLoopRunInMode(cf.kCFRunLoopDefaultMode, 0.01, false);
          listed = (await backend.windows.list()).some((w) => w.windowId === window.number);
        }
        assert.ok(listed, `window ${window.number} never appeared in the window list`);
        const { image, bounds } = await backend.screen.captureWindow(window.number);
        assert.ok(bounds.width >= 240 && image.width >= 240, `captured ${image.width}x${image.height}`);
        // The middle of the content area (below the title bar) is the window's red.
        const x = Math.floor(image.width / 2);
        const y = Math.floor(image.height * 0.65);
        const i = (y * image.width + x) * 4;
        const [r, g, b, a] = image.data.subarray(i, i + 4);
        assert.ok(r > 170 && g < 80 && b < 80 && a === 255, `pixel (${x}, ${y}) is ${[r, g, b, a]}`);
      } finally {
        window.close();
        await backend.close();
      }
    });
  },
});
