/**
 * Recording and replay end to end on the GTK3 fixture: a recorded session writes complete
 * turn folders (JSON that parses, PNGs that decode at the window's size, click.png marked
 * at the click), a replay through the normal dispatch reproduces the app state the
 * fixture journals, record_video writes an H.264 file ffprobe reads, a driver killed
 * mid-recording leaves only complete turn folders (and a finished video), and a recording
 * in a newer format is refused.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { decodePng } from "../../src/lib/image/png.ts";
import type { RawImage } from "../../src/ports/screen.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { type FixtureApp, type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";
import { startTestDriver, type Structured, type TestDriver } from "../_helpers/in_process_driver.ts";

const ignore = ignoreWithoutDesktop();

/** The app state the fixture journals that the recorded session changes. */
function endState(entry: JournalEntry) {
  return { counter: entry.counter, mirror: entry.mirror, slider_value: entry.slider_value };
}

async function latest(app: FixtureApp): Promise<JournalEntry> {
  return (await app.readJournal()).at(-1)!;
}

async function names(dir: string): Promise<string[]> {
  const list: string[] = [];
  for await (const entry of Deno.readDir(dir)) list.push(entry.name);
  return list.sort();
}

async function json(path: string): Promise<Structured> {
  return JSON.parse(await Deno.readTextFile(path));
}

async function png(path: string): Promise<RawImage> {
  return decodePng(await Deno.readFile(path));
}

/** Centre of a fixture control, in pixels of get_window_state's screenshot. */
function centre(app: FixtureApp, widget: string, scale: number) {
  const w = app.widgets[widget];
  assert.ok(w, `fixture reports ${widget}`);
  return { x: Math.round((w.x + w.width / 2) * scale), y: Math.round((w.y + w.height / 2) * scale) };
}

async function tokenOf(driver: TestDriver, app: FixtureApp, label: string): Promise<string> {
  const state = await driver.ok("get_window_state", {
    pid: app.pid,
    window_id: app.xid,
    include_screenshot: false,
  });
  const row = (state.elements as Structured[]).find((e) => e.label === label);
  assert.ok(row, `${label} is in the tree`);
  return row.element_token;
}

/**
 * Checks that a turn folder is complete: action.json and evidence.json parse, every piece
 * of evidence reported captured is there and decodes. Returns action.json.
 */
async function checkTurn(turn: string, size?: { width: number; height: number }): Promise<Structured> {
  const files = await names(turn);
  const action = await json(join(turn, "action.json"));
  const evidence = await json(join(turn, "evidence.json"));
  assert.equal(evidence.schema, "cua-turn-evidence/v1");
  assert.equal(typeof action.tool, "string");
  assert.equal(typeof action.result_error, "boolean");
  assert.match(action.timestamp, /^\d+\.\d{3}$/);
  for (const phase of ["before", "after"] as const) {
    if (evidence[phase].screenshot.status === "captured") {
      const image = await png(join(turn, `${phase}.png`));
      if (size) {
        assert.deepEqual({ width: image.width, height: image.height }, size, `${turn} ${phase}.png size`);
      }
    }
    if (evidence[phase].state.status === "captured") {
      const state = await json(join(turn, `${phase}_state.json`));
      assert.equal(typeof state.tree_markdown, "string");
      assert.equal(typeof state.element_count, "number");
    }
  }
  if (evidence.after.screenshot.status === "captured") assert.ok(files.includes("screenshot.png"), turn);
  if (evidence.after.state.status === "captured") assert.ok(files.includes("app_state.json"), turn);
  return action;
}

Deno.test({
  name: "recording: a fixture session writes complete turn folders, and its replay reproduces the app state",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const env = desktopEnv();
    await using driver = await startTestDriver();
    await using app = await startFixture(env, { title: "Recording fixture", x: 40, y: 40 });
    const dir = await Deno.makeTempDir({ prefix: "cua-recording-" });
    try {
      const window = { pid: app.pid, window_id: app.xid };
      const observed = await driver.ok("get_window_state", window);
      const scale = observed.screenshot_scale as number;
      const size = { width: observed.bounds.width, height: observed.bounds.height };

      let recorded: ReturnType<typeof endState>;
      const timings: number[] = [];
      const timed = async (name: string, args: Record<string, unknown>) => {
        const started = performance.now();
        const result = await driver.ok(name, args);
        timings.push(performance.now() - started);
        return result;
      };

      await t.step("start_recording, three actions, stop_recording", async () => {
        const started = await driver.call("start_recording", { output_dir: dir });
        assert.equal(started.isError, undefined);
        assert.match(
          (started.content[0] as { text: string }).text,
          /^✅ recording: enabled output_dir=.* next_turn=1/,
        );
        assert.deepEqual(
          { ...started.structuredContent, owner: undefined },
          {
            recording: true,
            enabled: true,
            output_dir: dir,
            next_turn: 1,
            last_error: null,
            video_active: false,
            last_video_path: null,
            owner: undefined,
          },
        );
        await timed("click", { ...window, ...centre(app, "btn-increment", scale) });
        await app.waitFor((e) => e.counter === 1);
        await timed("type_text", { ...window, ...centre(app, "txt-input", scale), text: "hello" });
        await app.waitFor((e) => e.mirror === "hello");
        await timed("set_value", { element_token: await tokenOf(driver, app, "sld-value"), value: "42" });
        await app.waitFor((e) => e.slider_value === 42);
        const state = await driver.call("get_recording_state", {});
        assert.equal(state.structuredContent?.next_turn, 4);
        assert.equal((await driver.ok("get_session", {})).recording_active, true);
        const stopped = await driver.ok("stop_recording", {});
        assert.equal(stopped.recording, false);
        assert.equal((await driver.ok("get_session", {})).recording_active, false);
        const disabled = await driver.call("get_recording_state");
        assert.deepEqual(disabled.content, [{ type: "text", text: "✅ recording: disabled" }]);
        recorded = endState(await latest(app));
        assert.deepEqual(recorded, { counter: 1, mirror: "hello", slider_value: 42 });
      });

      await t.step("every turn folder holds valid JSON and PNGs of the window's size", async () => {
        const entries = await names(dir);
        assert.deepEqual(entries.filter((n) => n.startsWith("turn-") || n.startsWith(".turn")), [
          "turn-00001",
          "turn-00002",
          "turn-00003",
        ]);
        const tools = [];
        for (const turn of ["turn-00001", "turn-00002", "turn-00003"]) {
          const action = await checkTurn(join(dir, turn), size);
          tools.push(action.tool);
          assert.equal(action.result_error, false, `${turn}: ${action.result_summary}`);
          const evidence = await json(join(dir, turn, "evidence.json"));
          for (const phase of ["before", "after"]) {
            assert.deepEqual(evidence[phase], {
              state: { status: "captured" },
              screenshot: { status: "captured" },
            });
          }
          const after = await json(join(dir, turn, "after_state.json"));
          assert.deepEqual([after.pid, after.window_id], [app.pid, app.xid]);
        }
        assert.deepEqual(tools, ["click", "type_text", "set_value"]);
        const typed = await json(join(dir, "turn-00002", "after_state.json"));
        assert.match(typed.tree_markdown, /hello/, "the after tree shows the typed text");

        const click = await json(join(dir, "turn-00001", "action.json"));
        const point = click.click_point as { x: number; y: number };
        const button = app.widgets["btn-increment"];
        assert.ok(
          Math.abs(point.x - (button.x + button.width / 2)) <= 2,
          `click_point ${JSON.stringify(point)}`,
        );
        const before = await png(join(dir, "turn-00001", "before.png"));
        const marked = await png(join(dir, "turn-00001", "click.png"));
        const at = (point.y * before.width + point.x) * 4;
        assert.deepEqual([...marked.data.slice(at, at + 3)], [255, 0, 0]);
        assert.notDeepEqual([...before.data.slice(at, at + 3)], [255, 0, 0]);
        for (const turn of ["turn-00002", "turn-00003"]) {
          assert.ok(!(await names(join(dir, turn))).includes("click.png"), `${turn} is not a click`);
        }
        const session = await json(join(dir, "session.json"));
        assert.equal(session.schema_version, 1);
        assert.deepEqual(session.video, { present: false });
        assert.ok(session.cursor.present && session.cursor.sample_count > 0, JSON.stringify(session.cursor));
        const cursor = (await Deno.readTextFile(join(dir, "cursor.jsonl"))).trim().split("\n").map((l) =>
          JSON.parse(l)
        );
        assert.equal(cursor.length, session.cursor.sample_count);
        assert.deepEqual(Object.keys(cursor[0]), ["t_ms", "x", "y"]);
        console.log(
          `recording: action round trips while recording ${timings.map((ms) => ms.toFixed(0)).join(", ")} ms`,
        );
      });

      await t.step("replay_trajectory in another session reproduces the recorded end state", async () => {
        await driver.ok("click", { ...window, ...centre(app, "btn-reset", scale) });
        await driver.ok("set_value", { element_token: await tokenOf(driver, app, "txt-input"), value: "" });
        await driver.ok("set_value", { element_token: await tokenOf(driver, app, "sld-value"), value: "0" });
        await app.waitFor((e) => e.counter === 0 && e.mirror === "" && e.slider_value === 0);
        const report = await driver.ok("replay_trajectory", { dir, delay_ms: 50, session: "replayer" });
        assert.deepEqual(
          [report.attempted, report.succeeded, report.failed],
          [3, 3, 0],
          JSON.stringify(report.turns),
        );
        assert.equal(report.first_failure, undefined);
        assert.deepEqual(report.turns.map((r: Structured) => r.tool), ["click", "type_text", "set_value"]);
        await app.waitFor((e) => e.counter === 1 && e.mirror === "hello" && e.slider_value === 42);
        assert.deepEqual(endState(await latest(app)), recorded);
      });

      await t.step("replay refuses a newer format, a missing folder and a folder without turns", async () => {
        const session = await json(join(dir, "session.json"));
        await Deno.writeTextFile(
          join(dir, "session.json"),
          JSON.stringify({ ...session, schema_version: 2 }),
        );
        const newer = await driver.fails("replay_trajectory", { dir }, "recording_format_unsupported");
        assert.match(newer.message, /newer than this build supports/);
        assert.equal(newer.status, "refused");
        assert.equal((await latest(app)).counter, 1, "nothing was replayed");
        const missing = await driver.fails(
          "replay_trajectory",
          { dir: `${dir}/nope` },
          "recording_not_found",
        );
        assert.match(missing.message, /Trajectory directory does not exist/);
        const empty = await Deno.makeTempDir();
        await driver.fails("replay_trajectory", { dir: empty }, "recording_invalid");
        await Deno.remove(empty);
        await driver.fails("replay_trajectory", { dir: "relative/path" }, "invalid_arguments");
      });
    } finally {
      await driver.call("stop_recording");
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

async function ffprobe(path: string): Promise<Structured> {
  const out = await new Deno.Command("ffprobe", {
    args: ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "json", path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test({
  name: "recording: record_video writes an H.264 1920x1080 recording.mp4 that ffprobe reads",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using driver = await startTestDriver();
    await using app = await startFixture(desktopEnv(), { title: "Video fixture", x: 60, y: 60 });
    const dir = await Deno.makeTempDir({ prefix: "cua-video-" });
    try {
      const state = await driver.ok("start_recording", { output_dir: dir, record_video: true });
      assert.equal(state.video_active, true, JSON.stringify(state));
      assert.equal(state.last_video_path, join(dir, "recording.mp4"));
      const observed = await driver.ok("get_window_state", { pid: app.pid, window_id: app.xid });
      await driver.ok("click", {
        pid: app.pid,
        window_id: app.xid,
        ...centre(app, "btn-increment", observed.screenshot_scale),
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stopped = await driver.ok("stop_recording");
      assert.equal(stopped.video_active, false);
      assert.equal(stopped.last_error, null);
      const probe = await ffprobe(join(dir, "recording.mp4"));
      assert.deepEqual(probe.streams, [{ codec_name: "h264", width: 1920, height: 1080 }]);
      const session = await json(join(dir, "session.json"));
      assert.equal(session.video.present, true);
      assert.equal(session.video.path, "recording.mp4");
      assert.equal(session.video.finalized, true);
      assert.ok(session.video.duration_ms >= 1500);
      await checkTurn(join(dir, "turn-00001"));
    } finally {
      await driver.call("stop_recording");
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

/** Reads newline-delimited JSON-RPC responses from the driver's stdout as they come. */
async function* responses(stream: ReadableStream<Uint8Array>): AsyncGenerator<Structured> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
}

Deno.test({
  name: "recording: a driver killed mid-recording leaves only complete turn folders and a finished video",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using app = await startFixture(desktopEnv(), { title: "Crash fixture", x: 80, y: 80 });
    const dir = await Deno.makeTempDir({ prefix: "cua-crash-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: driverArgs("mcp", "--desktop", "system"),
      env: driverEnv(),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    const send = (id: number, method: string, params: unknown) =>
      writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"));
    const call = (id: number, name: string, args: unknown) =>
      send(id, "tools/call", { name, arguments: args });
    const replies = responses(child.stdout);
    const next = async () => (await replies.next()).value as Structured;
    try {
      await send(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "crash", version: "0" },
      });
      await next();
      await call(2, "start_recording", { output_dir: dir, record_video: true });
      assert.equal((await next()).result.structuredContent.video_active, true);
      await call(3, "get_window_state", { pid: app.pid, window_id: app.xid, include_screenshot: true });
      const scale = (await next()).result.structuredContent.screenshot_scale;
      const point = centre(app, "btn-increment", scale);
      // Twelve clicks in flight; the driver dies after the third answer, in the middle of the rest.
      for (let id = 10; id < 22; id++) {
        await call(id, "click", { pid: app.pid, window_id: app.xid, ...point });
      }
      for (let answered = 0; answered < 3;) if ((await next()).id >= 10) answered++;
      child.kill("SIGKILL");
      await child.status;

      const entries = await names(dir);
      console.log(`recording: after SIGKILL: ${entries.join(" ")}`);
      const turns = entries.filter((n) => n.startsWith("turn-"));
      // Three answers came back: at most the last of them was still being written.
      assert.ok(turns.length >= 2, `the answered turns are complete: ${entries.join(" ")}`);
      assert.deepEqual(turns, turns.map((_, i) => `turn-${String(i + 1).padStart(5, "0")}`), "no gaps");
      for (const turn of turns) {
        const action = await checkTurn(join(dir, turn));
        assert.equal(action.tool, "click");
        const files = await names(join(dir, turn));
        for (const file of ["action.json", "evidence.json", "before.png", "after.png", "click.png"]) {
          assert.ok(files.includes(file), `${turn} has ${file}: ${files.join(" ")}`);
        }
      }
      for (const name of entries) {
        assert.ok(
          /^(turn-\d{5}|\.turn-\d{5}\.partial|session\.json|cursor\.jsonl|recording\.mp4)$/.test(name),
          name,
        );
      }
      // The watchdog stops ffmpeg once the driver's pipe closes; the file is finished.
      const session = await json(join(dir, "session.json"));
      assert.equal(session.stopped_at, undefined, "the driver never got to stop");
      let probe: Structured | null = null;
      for (let i = 0; i < 50 && probe === null; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const running = await new Deno.Command("pgrep", { args: ["-f", dir], stdout: "piped" }).output();
        if (running.code !== 0) probe = await ffprobe(join(dir, "recording.mp4"));
      }
      assert.ok(probe, "ffmpeg exited after the driver died");
      assert.equal(probe.streams[0].codec_name, "h264");
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already dead.
      }
      await child.status;
      await writer.close().catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
