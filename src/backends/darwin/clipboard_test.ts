/** The macOS clipboard (NSPasteboard) against the fake frameworks. */
import assert from "node:assert/strict";
import { fakeMacBackend } from "./_fake/harness.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

Deno.test("darwin clipboard reads the pasteboard's types and text", async () => {
  await using mac = fakeMacBackend();
  const content = await mac.backend.clipboard.read({ text: true, image: true });
  assert.deepEqual(content, { types: ["public.utf8-plain-text"], text: "copied earlier", imagePng: null });
  const typesOnly = await mac.backend.clipboard.read({ text: false, image: false });
  assert.equal(typesOnly.text, null);
});

Deno.test("darwin clipboard replaces the pasteboard with text, an image or files", async () => {
  await using mac = fakeMacBackend();
  const { world } = mac.fake;
  const before = world.pasteboardChangeCount;
  assert.deepEqual(await mac.backend.clipboard.writeText("Grüße 🍎"), ["public.utf8-plain-text"]);
  assert.deepEqual(world.pasteboard, [{ type: "public.utf8-plain-text", text: "Grüße 🍎" }]);
  assert.ok(world.pasteboardChangeCount > before, "clearContents ran first");
  await mac.backend.clipboard.writeImage(PNG);
  assert.deepEqual(world.pasteboard, [{ type: "public.png", bytes: PNG }]);
  assert.deepEqual((await mac.backend.clipboard.read({ text: true, image: true })).imagePng, PNG);
  await mac.backend.clipboard.writeFiles(["/Users/ada/a b.txt", "/tmp/c.png"]);
  assert.deepEqual(world.pasteboard.map((item) => item.text), [
    "file:///Users/ada/a%20b.txt",
    "file:///tmp/c.png",
  ]);
});

Deno.test("darwin clipboard converts a TIFF-only image to PNG through NSBitmapImageRep", async () => {
  await using mac = fakeMacBackend();
  const tiff = new Uint8Array([...new TextEncoder().encode("FAKE-TIFF:"), ...PNG]);
  mac.fake.world.pasteboard = [{ type: "public.tiff", bytes: tiff }];
  const content = await mac.backend.clipboard.read({ text: true, image: true });
  assert.deepEqual(content.types, ["public.tiff"]);
  assert.equal(content.text, null);
  assert.deepEqual(content.imagePng, PNG);
});
