import assert from "node:assert/strict";
import { CaptureRegistry, PIXEL_CACHE_BYTES, PIXEL_CACHE_ENTRIES } from "./captures.ts";

function register(registry: CaptureRegistry, sessionId = "s1") {
  return registry.register({
    kind: "display",
    windowId: null,
    displayId: "0",
    bounds: { x: 0, y: 0, width: 10, height: 10 },
    imageWidth: 10,
    imageHeight: 10,
    sessionId,
  });
}

const image = (bytes: number) => ({ width: 1, height: 1, data: new Uint8Array(bytes) });

Deno.test("CaptureRegistry keeps the pixels of the last captures only", () => {
  const registry = new CaptureRegistry();
  const ids = Array.from({ length: PIXEL_CACHE_ENTRIES + 1 }, () => {
    const capture = register(registry);
    registry.keepPixels(capture.id, image(16));
    return capture.id;
  });
  assert.equal(registry.pixels(ids[0]), undefined, "the oldest pixels went");
  assert.ok(registry.get(ids[0]), "the capture itself is still registered");
  for (const id of ids.slice(1)) assert.ok(registry.pixels(id));
});

Deno.test("CaptureRegistry bounds kept pixels by bytes, always keeping the newest", () => {
  const registry = new CaptureRegistry();
  const a = register(registry), b = register(registry);
  registry.keepPixels(a.id, image(PIXEL_CACHE_BYTES / 2));
  registry.keepPixels(b.id, image(PIXEL_CACHE_BYTES));
  assert.equal(registry.pixels(a.id), undefined);
  assert.ok(registry.pixels(b.id));
});

Deno.test("CaptureRegistry drops the pixels of an ended session and ignores unknown ids", () => {
  const registry = new CaptureRegistry();
  const mine = register(registry, "s1"), theirs = register(registry, "s2");
  registry.keepPixels(mine.id, image(4));
  registry.keepPixels(theirs.id, image(4));
  registry.keepPixels("cunknown", image(4));
  registry.dropSession("s1");
  assert.equal(registry.pixels(mine.id), undefined);
  assert.ok(registry.pixels(theirs.id));
  assert.equal(registry.pixels("cunknown"), undefined);
  assert.equal(registry.latestDisplay("s2", "0")?.id, theirs.id);
});
