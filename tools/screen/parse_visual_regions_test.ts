import assert from "node:assert/strict";
import { ConfigStore } from "../../src/kernel/config.ts";
import { ToolRegistry } from "../../src/kernel/registry.ts";
import { RuntimeState } from "../../src/kernel/runtime_state.ts";
import { FakeBackend } from "../../src/backends/fake/mod.ts";
import type { PerceivedLine, PerceptionBackend, PerceptionStatus } from "../../src/ports/perception.ts";
import type { RawImage } from "../../src/ports/screen.ts";
import { allTools } from "../mod.ts";

const INSTALLED: PerceptionStatus = {
  installed: true,
  engine: "tesseract",
  version: "5.3.0",
  missing: null,
  remedy: null,
};

/** A 200x80 light image with a framed button (border 150 on 240) around a dark label at 60,32 50x10. */
function buttonImage(): RawImage {
  const width = 200, height = 80;
  const data = new Uint8Array(width * height * 4);
  const fill = (x0: number, y0: number, w: number, h: number, v: number) => {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) data.set([v, v, v, 255], (y * width + x) * 4);
    }
  };
  fill(0, 0, width, height, 245);
  fill(20, 20, 137, 34, 150);
  fill(21, 21, 135, 32, 240);
  fill(60, 32, 50, 10, 40);
  return { width, height, data };
}

function kit(status: PerceptionStatus = INSTALLED) {
  const lines: PerceivedLine[] = [
    { words: [{ text: "Apply", bounds: { x: 60, y: 32, width: 50, height: 10 }, confidence: 0.93 }] },
    { words: [{ text: "Status:", bounds: { x: 10, y: 65, width: 40, height: 10 }, confidence: 0.81 }] },
  ];
  const seen: RawImage[] = [];
  const perception: PerceptionBackend = {
    status: () => Promise.resolve(status),
    recognizeText: (image) => {
      seen.push(image);
      return Promise.resolve(lines);
    },
    installPlan: () => Promise.resolve(null),
    install: () => Promise.reject(new Error("not used")),
  };
  const fake = Object.assign(new FakeBackend(), { perception });
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  const registry = new ToolRegistry(allTools, fake, state);
  const call = (name: string, args: Record<string, unknown>, lease = "test") =>
    registry.call(name, args, { lease, transport: "cli" });
  return { call, state, seen };
}

Deno.test("parse_visual_regions tool parses exactly the registered capture's pixels", async () => {
  const { call, state, seen } = kit();
  const shot = await call("get_desktop_state", {});
  const id = shot.structuredContent!.screenshot_id as string;
  // The fake display's pixels are replaced by the button image under the same id.
  state.captures.keepPixels(id, buttonImage());
  const result = await call("parse_visual_regions", { screenshot_id: id });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(seen.length, 1);
  const out = result.structuredContent!;
  assert.deepEqual([out.width, out.height], [200, 80]);
  assert.deepEqual(out.engine, { name: "tesseract", version: "5.3.0" });
  const regions = out.regions as Record<string, unknown>[];
  assert.deepEqual(regions.map((r) => [r.region_id, r.kind, r.text]), [
    [`${id}:r1`, "text", "Apply"],
    [`${id}:r2`, "control", "Apply"],
    [`${id}:r3`, "text", "Status:"],
  ]);
  assert.deepEqual(regions[1].bounds, { x: 20, y: 20, width: 137, height: 34 });
  assert.deepEqual(regions[1].center, { x: 89, y: 37 });
  assert.equal(regions[1].text_region_id, `${id}:r1`);
  const controls = await call("parse_visual_regions", { screenshot_id: id, kinds: ["control"] });
  assert.deepEqual((controls.structuredContent!.regions as { region_id: string }[]).map((r) => r.region_id), [
    `${id}:r2`,
  ]);
});

Deno.test("parse_visual_regions tool refuses stale ids without capturing", async () => {
  const { call, seen } = kit();
  const unknown = await call("parse_visual_regions", { screenshot_id: "c000000000000" });
  assert.equal(unknown.structuredContent?.code, "stale_screenshot");
  const shot = await call("get_desktop_state", {});
  const foreign = await call(
    "parse_visual_regions",
    { screenshot_id: shot.structuredContent!.screenshot_id },
    "other-lease",
  );
  assert.equal(foreign.structuredContent?.code, "stale_screenshot");
  assert.equal(foreign.structuredContent?.reason, "unknown");
  assert.equal(seen.length, 0);
});

Deno.test("parse_visual_regions tool answers not_installed with the remedy", async () => {
  const remedy = `cua-driver install_extension '{"confirm": true}'`;
  const { call } = kit({
    installed: false,
    engine: "tesseract",
    version: null,
    missing: "libtesseract",
    remedy,
  });
  const result = await call("parse_visual_regions", { screenshot_id: "c000000000000" });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent?.code, "not_installed");
  assert.equal(result.structuredContent?.remedy, remedy);
  assert.match(String(result.structuredContent?.hint), /install_extension/);
});
