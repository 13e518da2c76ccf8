import assert from "node:assert/strict";
import { join } from "node:path";
import type { RawImage } from "../../ports/screen.ts";
import { decodePng, encodePng } from "../../lib/image/png.ts";
import { drawCrosshair } from "./crosshair.ts";
import { type TurnContent, turnFolderName, writeTurn } from "./turn_writer.ts";

function noise(width: number, height: number): RawImage {
  const data = new Uint8Array(width * height * 4);
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  return { width, height, data };
}

function content(image: RawImage, click: { x: number; y: number } | null): TurnContent {
  const captured = { status: "captured" as const };
  return {
    action: { tool: "click" },
    evidence: {
      schema: "cua-turn-evidence/v1",
      before: { state: captured, screenshot: captured },
      after: { state: captured, screenshot: captured },
      click: captured,
    },
    before: { image, state: { pid: 1, window_id: 2, element_count: 0, tree_markdown: "" } },
    after: { image, state: { pid: 1, window_id: 2, element_count: 0, tree_markdown: "" } },
    click,
  };
}

async function names(dir: string): Promise<string[]> {
  const list: string[] = [];
  for await (const entry of Deno.readDir(dir)) list.push(entry.name);
  return list.sort();
}

Deno.test("turnFolderName pads to five digits", () => {
  assert.equal(turnFolderName(1), "turn-00001");
  assert.equal(turnFolderName(123456), "turn-123456");
});

Deno.test("writeTurn shows no turn-* folder until every file is written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const seen = new Set<string>();
    const write = writeTurn(dir, 1, content(noise(1920, 1080), { x: 10, y: 10 }));
    let done = false;
    write.finally(() => done = true);
    while (!done) {
      for (const name of await names(dir)) {
        seen.add(name);
        if (name === "turn-00001" && !done) {
          // A final name only ever appears complete.
          assert.ok((await names(join(dir, name))).includes("click.png"));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await write;
    assert.ok(seen.has(".turn-00001.partial"), "the turn was written under its partial name first");
    assert.deepEqual(await names(dir), ["turn-00001"]);
    assert.deepEqual(await names(join(dir, "turn-00001")), [
      "action.json",
      "after.png",
      "after_state.json",
      "app_state.json",
      "before.png",
      "before_state.json",
      "click.png",
      "evidence.json",
      "screenshot.png",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeTurn that fails leaves neither the turn nor its partial folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const broken = { width: 10, height: 10, data: new Uint8Array(7) };
    await assert.rejects(() => writeTurn(dir, 3, content(broken, null)));
    assert.deepEqual(await names(dir), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("drawCrosshair marks the click point red and leaves the source image alone", async () => {
  const image = noise(40, 30);
  const marked = drawCrosshair(image, { x: 20, y: 15 });
  const at = (15 * 40 + 20) * 4;
  assert.deepEqual([...marked.data.slice(at, at + 4)], [255, 0, 0, 255]);
  assert.notDeepEqual(marked.data, image.data);
  const corner = 0;
  assert.deepEqual(marked.data.slice(corner, corner + 4), image.data.slice(corner, corner + 4));
  // Off the image: nothing drawn, no error.
  assert.deepEqual(drawCrosshair(image, { x: -100, y: -100 }).data, image.data);
  // It round-trips through PNG.
  assert.deepEqual(decodePng(await encodePng(marked)).data, marked.data);
});
