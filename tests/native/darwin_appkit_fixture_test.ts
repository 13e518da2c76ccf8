/**
 * Drives a tiny AppKit app (tests/native/fixtures/appkit_fixture.swift, built on the
 * runner with swiftc; `CUA_APPKIT_FIXTURE` names the binary) through the real macOS
 * back end, and reads the app's own journal for what landed. Each cell needs a grant
 * (Accessibility for trees, actions and posted events; Screen Recording for capture);
 * a cell whose grant this process lacks is skipped, its test name and the report
 * naming the exact missing grant. Ignored off macOS or without the fixture.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createDarwinBackend } from "../../src/backends/darwin/mod.ts";
import { systemFrameworks } from "../../src/backends/darwin/frameworks.ts";
import type { AxNode } from "../../src/ports/accessibility.ts";
import { cell, skipped } from "./_report.ts";

const fixture = Deno.env.get("CUA_APPKIT_FIXTURE") ?? "";
const present = Deno.build.os === "darwin" && fixture !== "";
const fw = present ? systemFrameworks() : null;
const accessibility = fw?.ax.AXIsProcessTrusted() ?? false;
const screenRecording = fw ? (fw.cg.CGPreflightScreenCaptureAccess?.() ?? true) : false;
const NO_AX = "Accessibility is not granted to the process that runs the tests";
const NO_SR = "Screen Recording is not granted to the process that runs the tests";

type Entry = { event: string; pid?: number; window?: number; state?: number; value?: string };

/** The fixture's journal entries so far. */
async function journal(path: string): Promise<Entry[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** Waits (bounded by attempts, not time) until the journal has an entry that satisfies `test`. */
async function entry(path: string, test: (e: Entry) => boolean, what: string): Promise<Entry> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const found = (await journal(path)).find(test);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the fixture's journal never showed ${what}: ${JSON.stringify(await journal(path))}`);
}

async function withFixture(body: (app: { pid: number; window: number; journal: string }) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "cua-fixture-" });
  const path = `${dir}/journal.jsonl`;
  const child = new Deno.Command(fixture, { args: [path], stdin: "null", stdout: "null", stderr: "inherit" })
    .spawn();
  try {
    const ready = await entry(path, (e) => e.event === "ready", "ready");
    await body({ pid: ready.pid!, window: ready.window!, journal: path });
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

function test(name: string, needs: string | null, fn: () => Promise<void>): void {
  Deno.test({
    name: needs && present ? skipped(name, needs) : name,
    ignore: !present || needs !== null,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => cell(name, fn),
  });
}

test("fixture: its window is listed with its pid (no grant)", null, async () => {
  await withFixture(async (app) => {
    const backend = createDarwinBackend();
    try {
      let row;
      for (let attempt = 0; attempt < 200 && !row; attempt++) {
        row = (await backend.windows.list()).find((w) => w.windowId === app.window);
      }
      assert.ok(row, `window ${app.window} is listed`);
      assert.equal(row.pid, app.pid);
    } finally {
      await backend.close();
    }
  });
});

async function checkbox(
  backend: ReturnType<typeof createDarwinBackend>,
  app: { pid: number; window: number },
) {
  const tree = await backend.accessibility.tree(
    app.pid,
    app.window,
    { maxNodes: 500, maxDepth: 20 },
    new AbortController().signal,
  );
  const node = tree.nodes.find((n: AxNode) => n.name === "Fixture box");
  assert.ok(node, `the tree has the checkbox: ${JSON.stringify(tree.nodes.map((n) => [n.role, n.name]))}`);
  return node;
}

test("fixture: AXPress toggles the checkbox (journal)", accessibility ? null : NO_AX, async () => {
  await withFixture(async (app) => {
    const backend = createDarwinBackend();
    try {
      const box = await checkbox(backend, app);
      assert.equal(await backend.accessibility.doAction(box.ref, "AXPress"), true);
      await entry(app.journal, (e) => e.event === "checkbox" && e.state === 1, "the checkbox on");
    } finally {
      await backend.close();
    }
  });
});

test(
  "fixture: a background pixel click toggles the checkbox (journal)",
  accessibility ? null : NO_AX,
  async () => {
    await withFixture(async (app) => {
      const backend = createDarwinBackend();
      try {
        const box = await checkbox(backend, app);
        const frame = box.frame!;
        const pointer = await backend.input.pointer("background");
        await pointer.move({ x: frame.x + 9, y: frame.y + frame.height / 2 });
        await pointer.button("left", true);
        await pointer.button("left", false);
        await entry(app.journal, (e) => e.event === "checkbox" && e.state === 1, "the checkbox on");
        console.log(`posted with ${pointer.via?.()}`);
      } finally {
        await backend.close();
      }
    });
  },
);

test(
  "fixture: background keys type into its text field (journal)",
  accessibility ? null : NO_AX,
  async () => {
    await withFixture(async (app) => {
      const backend = createDarwinBackend();
      try {
        const keyboard = await backend.input.keyboard("background");
        await backend.input.withBackgroundKeyboard(app.window, () => keyboard.typeText("cua"));
        await entry(app.journal, (e) => e.event === "text" && e.value === "cua", 'the text "cua"');
      } finally {
        await backend.close();
      }
    });
  },
);

test("fixture: its window captures with pixels", screenRecording ? null : NO_SR, async () => {
  await withFixture(async (app) => {
    const backend = createDarwinBackend();
    try {
      const { image } = await backend.screen.captureWindow(app.window);
      assert.ok(image.width >= 360 && image.height >= 200, `${image.width}x${image.height}`);
      let opaque = 0;
      for (let i = 3; i < image.data.length; i += 4) if (image.data[i] === 255) opaque++;
      assert.ok(opaque > (image.width * image.height) / 2, "most pixels are opaque");
    } finally {
      await backend.close();
    }
  });
});
