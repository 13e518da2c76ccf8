import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "../../lib/schema/mod.ts";
import { FakeBackend, fakeNode } from "../../backends/fake/mod.ts";
import { ConfigStore } from "../../kernel/config.ts";
import { DriverError } from "../../ports/errors.ts";
import { decodePng } from "../../lib/image/png.ts";
import { ToolRegistry } from "../../kernel/registry.ts";
import { ok } from "../../kernel/result.ts";
import { RuntimeState } from "../../kernel/runtime_state.ts";
import { defineTool } from "../../kernel/tool.ts";
import { Recorder } from "./recorder.ts";

const PID = 4242, WID = 77;

/** A click-like action: records its arguments, fails on `fail: true`. */
const click = defineTool({
  name: "click",
  title: "Click",
  description: "A scripted click for recorder tests.",
  group: "input",
  input: z.strictObject({
    pid: z.number().optional(),
    window_id: z.number().optional(),
    x: z.number().optional(),
    y: z.number().optional(),
    element_token: z.string().optional(),
    fail: z.boolean().optional(),
    session: z.string().optional(),
  }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: [],
  run(_ctx, args) {
    if (args.fail) throw new DriverError("delivery_failed", "Scripted failure");
    return Promise.resolve(ok({ effect: "unverifiable", route: "global_input" }, "clicked"));
  },
});

/** A read-only look that registers a half-scale screenshot of the window, as get_window_state does. */
const look = defineTool({
  name: "look",
  title: "Look",
  description: "A scripted observation for recorder tests.",
  group: "windows",
  input: z.strictObject({ session: z.string().optional() }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  risk: "r0",
  capabilities: [],
  run(ctx) {
    const bounds = { x: 100, y: 50, width: 200, height: 100 };
    ctx.state.captures.register({
      kind: "window",
      windowId: WID,
      displayId: "primary",
      bounds,
      windowOrigin: { x: bounds.x, y: bounds.y },
      imageWidth: 100,
      imageHeight: 50,
      sessionId: ctx.session.id,
    });
    return Promise.resolve(ok({}, "looked"));
  },
});

/** A batch that dispatches a click per entry (the way run_actions does). */
const batch = defineTool({
  name: "run_actions",
  title: "Run actions",
  description: "A scripted batch for recorder tests.",
  group: "input",
  input: z.strictObject({ n: z.number().int() }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  risk: "r1",
  capabilities: [],
  async run(ctx, args) {
    for (let i = 0; i < args.n; i++) {
      await ctx.dispatch!.call("click", { pid: PID, window_id: WID, x: 10, y: 10 });
    }
    return ok({}, "batch");
  },
});

function setup(options: { ffmpeg?: string | null } = {}) {
  const backend = new FakeBackend();
  backend.addWindow({ windowId: WID, pid: PID, bounds: { x: 100, y: 50, width: 200, height: 100 } });
  backend.trees.set(WID, {
    nodes: [
      fakeNode({ role: "window", platformRole: "frame", name: "Fixture" }),
      fakeNode({
        role: "button",
        platformRole: "push button",
        name: "OK",
        depth: 1,
        parent: 0,
        actions: ["click"],
      }),
    ],
    truncated: false,
    error: null,
  });
  const state = new RuntimeState(new ConfigStore("/nonexistent/config.json"));
  const recorder = new Recorder({ findFfmpeg: () => Promise.resolve(options.ffmpeg ?? null) });
  state.callObservers.clear();
  state.callObservers.add(recorder);
  state.sessions.addCleanupHook("recording", (s) => recorder.sessionEnded(s.id));
  const registry = new ToolRegistry([click, look, batch], backend, state);
  const call = (name: string, args: unknown = {}) =>
    registry.call(name, args, { lease: "L", transport: "cli" });
  const owner = { sessionId: "x", session: null, transport: "cli" as const };
  return { backend, state, recorder, registry, call, owner };
}

async function readJson(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("Recorder writes one complete turn folder per recorded call, and none for read-only calls", async () => {
  const dir = await Deno.makeTempDir();
  const { recorder, call, backend, owner } = setup();
  try {
    await recorder.start(backend, { outputDir: dir, recordVideo: false, owner });
    assert.equal((await call("look")).isError, undefined);
    assert.equal(
      (await call("click", { pid: PID, window_id: WID, x: 50, y: 25, _meta: 1 })).isError,
      undefined,
    );
    assert.equal((await call("click", { x: 5, y: 5, fail: true })).isError, true);
    const state = await recorder.stop();
    assert.equal(state.recording, false);
    assert.equal(state.next_turn, 3);

    assert.deepEqual((await listDir(dir)).filter((n) => !n.endsWith(".jsonl")), [
      "session.json",
      "turn-00001",
      "turn-00002",
    ]);
    const t1 = join(dir, "turn-00001");
    assert.deepEqual(await listDir(t1), [
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
    const action = await readJson(join(t1, "action.json"));
    assert.equal(action.tool, "click");
    assert.deepEqual(
      action.arguments,
      { pid: PID, window_id: WID, x: 50, y: 25 },
      "underscore keys stripped",
    );
    assert.equal(action.result_error, false);
    assert.equal(action.result_summary, "clicked");
    assert.match(action.timestamp, /^\d{10}\.\d{3}$/);
    assert.ok(action.t_ms_from_session_start >= action.t_start_ms_from_session_start);
    // x, y are pixels of a half-scale screenshot: the click is at (100, 50) in the native window.
    assert.deepEqual(action.click_point, { x: 100, y: 50 });
    assert.deepEqual(action.replay.pixel_space, { width: 100, height: 50, from_zoom: false });
    const before = decodePng(await Deno.readFile(join(t1, "before.png")));
    const marked = decodePng(await Deno.readFile(join(t1, "click.png")));
    assert.deepEqual([before.width, before.height], [200, 100]);
    const at = (100 + 50 * 200) * 4;
    assert.notDeepEqual([...marked.data.slice(at, at + 3)], [...before.data.slice(at, at + 3)]);
    assert.deepEqual([...marked.data.slice(at, at + 3)], [255, 0, 0]);
    const stateDoc = await readJson(join(t1, "before_state.json"));
    assert.deepEqual(
      { pid: stateDoc.pid, window_id: stateDoc.window_id, element_count: stateDoc.element_count },
      { pid: PID, window_id: WID, element_count: 1 },
    );
    assert.match(stateDoc.tree_markdown, /\[0\] push button "OK"/);
    const evidence = await readJson(join(t1, "evidence.json"));
    assert.equal(evidence.schema, "cua-turn-evidence/v1");
    assert.deepEqual(evidence.click, { status: "captured" });
    assert.deepEqual(evidence.after.screenshot, { status: "captured" });

    // The failed click: display evidence, no click.png, classified.
    const t2 = join(dir, "turn-00002");
    const failed = await readJson(join(t2, "action.json"));
    assert.equal(failed.result_error, true);
    assert.equal(
      (await readJson(join(t2, "evidence.json"))).click.classification,
      "action_refused_before_dispatch",
    );
    assert.deepEqual((await readJson(join(t2, "evidence.json"))).before.state, {
      status: "not_applicable",
      classification: "no_target_pid",
    });
    assert.equal(decodePng(await Deno.readFile(join(t2, "before.png"))).width, 1920);
    assert.ok(!(await listDir(t2)).includes("click.png"));

    const session = await readJson(join(dir, "session.json"));
    assert.equal(session.schema_version, 1);
    assert.equal(typeof session.started_at_monotonic_ms, "number");
    assert.deepEqual(session.video, { present: false });
    assert.equal(session.cursor.present, true);
    assert.equal(session.turn_count, 2);
  } finally {
    await recorder.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Recorder records each call a batch dispatches, not the batch", async () => {
  const dir = await Deno.makeTempDir();
  const { recorder, call, backend, owner } = setup();
  try {
    await recorder.start(backend, { outputDir: dir, recordVideo: false, owner });
    await call("look");
    await call("run_actions", { n: 2 });
    await recorder.stop();
    const turns = (await listDir(dir)).filter((n) => n.startsWith("turn-"));
    assert.deepEqual(turns, ["turn-00001", "turn-00002"]);
    for (const turn of turns) assert.equal((await readJson(join(dir, turn, "action.json"))).tool, "click");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Recorder stops when its owner session ends, and never records into a used folder again", async () => {
  const dir = await Deno.makeTempDir();
  const { recorder, call, backend, state } = setup();
  try {
    await call("look");
    const session = state.sessions.peek("L")!;
    await recorder.start(backend, {
      outputDir: dir,
      recordVideo: false,
      owner: { sessionId: session.id, session: null, transport: "cli" },
    });
    await call("click", { pid: PID, window_id: WID, x: 1, y: 1 });
    // A half turn left by a crash is removed at the next start.
    await Deno.mkdir(join(dir, ".turn-00009.partial"));
    await state.sessions.endLease("L");
    assert.equal(recorder.state().recording, false);
    const before = await Deno.readTextFile(join(dir, "session.json"));
    await assert.rejects(
      recorder.start(backend, {
        outputDir: dir,
        recordVideo: false,
        owner: { sessionId: "y", session: null, transport: "cli" },
      }),
      (error: DriverError) => error.code === "invalid_arguments" && error.data.field === "output_dir",
    );
    assert.equal(recorder.state().recording, false);
    assert.equal(await Deno.readTextFile(join(dir, "session.json")), before, "session.json untouched");
    assert.deepEqual((await listDir(dir)).filter((n) => n.startsWith("turn-")), ["turn-00001"]);
  } finally {
    await recorder.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Recorder without ffmpeg records turns and says why there is no video", async () => {
  const dir = await Deno.makeTempDir();
  const { recorder, call, backend, owner } = setup({ ffmpeg: null });
  try {
    const state = await recorder.start(backend, { outputDir: dir, recordVideo: true, owner });
    assert.equal(state.video_active, false);
    assert.match(state.last_error ?? "", /video/);
    await call("click", { pid: PID, window_id: WID, x: 1, y: 1, session: "s" });
    await recorder.stop();
    assert.ok((await listDir(dir)).includes("turn-00001"));
    const session = await readJson(join(dir, "session.json"));
    assert.equal(session.video.present, false);
    assert.equal(typeof session.video.error, "string");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Recorder refuses a relative output_dir", async () => {
  const { recorder, backend, owner } = setup();
  await assert.rejects(
    () => recorder.start(backend, { outputDir: "relative/dir", recordVideo: false, owner }),
    (error: DriverError) => error.code === "invalid_arguments" && error.data.field === "output_dir",
  );
});
