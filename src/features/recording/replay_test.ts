import assert from "node:assert/strict";
import { join } from "node:path";
import type { DriverError } from "../../ports/errors.ts";
import { ok, type ToolResult } from "../../kernel/result.ts";
import type { ToolDispatch } from "../../kernel/tool.ts";
import { listTurns, replayTrajectory } from "./replay.ts";

/** A dispatch that logs calls and answers get_window_state with two "OK" buttons. */
function fakeDispatch(fail: Set<string> = new Set()) {
  const calls: [string, Record<string, unknown>][] = [];
  const dispatch: ToolDispatch = {
    call(name, args) {
      calls.push([name, args]);
      if (name === "get_window_state") {
        return Promise.resolve(ok({
          elements: [
            { role: "push button", label: "OK", element_token: "s0000abcd:0" },
            { role: "push button", label: "OK", element_token: "s0000abcd:1" },
          ],
        }, "state"));
      }
      if (fail.has(name)) {
        const failed: ToolResult = {
          isError: true,
          content: [{ type: "text", text: `${name} failed` }],
          structuredContent: { code: "delivery_failed" },
        };
        return Promise.resolve(failed);
      }
      return Promise.resolve(ok({}, `${name} done`));
    },
    validate() {},
  };
  return { dispatch, calls };
}

async function recording(turns: Record<string, unknown>[], session?: unknown): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [i, action] of turns.entries()) {
    const turn = join(dir, `turn-${String(i + 1).padStart(5, "0")}`);
    await Deno.mkdir(turn);
    await Deno.writeTextFile(
      join(turn, "action.json"),
      typeof action.raw === "string" ? action.raw : JSON.stringify(action),
    );
  }
  if (session !== undefined) await Deno.writeTextFile(join(dir, "session.json"), JSON.stringify(session));
  return dir;
}

const options = (dir: string, dispatch: ToolDispatch, stopOnError = true) => ({
  dir,
  delayMs: 0,
  stopOnError,
  dispatch,
  signal: new AbortController().signal,
  windowShotSize: () => ({ width: 200, height: 100 }),
});

Deno.test("replayTrajectory re-sends each turn in order and re-aims element tokens by role and label", async () => {
  const dir = await recording([
    {
      tool: "click",
      arguments: { pid: 1, window_id: 2, x: 5, y: 6 },
      replay: { target: { kind: "window", pid: 1, window_id: 2 }, pixel_space: { width: 200, height: 100 } },
    },
    {
      tool: "set_value",
      arguments: { element_token: "s12345678:7", value: "42" },
      replay: {
        target: { kind: "window", pid: 1, window_id: 2 },
        element: { role: "push button", label: "OK", ordinal: 1 },
      },
    },
    { tool: "press_key", arguments: { key: "Return" } },
  ], { schema_version: 1 });
  try {
    const { dispatch, calls } = fakeDispatch();
    const report = await replayTrajectory(options(dir, dispatch));
    assert.deepEqual([report.attempted, report.succeeded, report.failed], [3, 3, 0]);
    assert.equal(report.first_failure, undefined);
    assert.deepEqual(calls, [
      ["click", { pid: 1, window_id: 2, x: 5, y: 6 }],
      ["get_window_state", { pid: 1, window_id: 2, include_screenshot: false }],
      ["set_value", { element_token: "s0000abcd:1", value: "42" }],
      ["press_key", { key: "Return" }],
    ]);
    assert.deepEqual(report.turns[0], {
      turn: "turn-00001",
      tool: "click",
      ok: true,
      result_summary: "click done",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replayTrajectory takes a fresh screenshot before a pixel turn whose pixel space differs", async () => {
  const dir = await recording([
    {
      tool: "click",
      arguments: { pid: 1, window_id: 2, x: 5, y: 6 },
      replay: { target: { kind: "window", pid: 1, window_id: 2 }, pixel_space: { width: 400, height: 200 } },
    },
  ]);
  try {
    const { dispatch, calls } = fakeDispatch();
    await replayTrajectory(options(dir, dispatch));
    assert.deepEqual(calls.map(([name, args]) => [name, args.include_screenshot]), [
      ["get_window_state", true],
      ["click", undefined],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replayTrajectory reports parse errors and failures, and stops on the first unless told not to", async () => {
  const dir = await recording([
    { raw: "{not json" },
    { tool: "click", arguments: { x: 1, y: 1 } },
    { tool: "clipboard_write", arguments: { text: "<redacted>" }, redacted: ["text"] },
    { tool: "press_key", arguments: { key: "a" } },
  ]);
  try {
    const stopping = await replayTrajectory(options(dir, fakeDispatch().dispatch));
    assert.equal(stopping.attempted, 1);
    assert.equal(stopping.turns[0].ok, false);
    assert.match((stopping.turns[0] as { parse_error: string }).parse_error, /not valid JSON/);
    assert.equal(stopping.first_failure?.turn, "turn-00001");

    const { dispatch } = fakeDispatch(new Set(["click"]));
    const all = await replayTrajectory(options(dir, dispatch, false));
    assert.deepEqual([all.attempted, all.succeeded, all.failed], [4, 1, 3]);
    assert.deepEqual(all.turns[1], {
      turn: "turn-00002",
      tool: "click",
      ok: false,
      result_summary: "click failed",
      error_code: "delivery_failed",
    });
    assert.match((all.turns[2] as { result_summary: string }).result_summary, /redacted/);
    assert.equal(all.first_failure?.turn, "turn-00001");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("listTurns refuses a missing folder, a folder without turns and a newer format", async () => {
  const missing = "/nonexistent/cua-recording";
  await assert.rejects(() => listTurns(missing), (e: DriverError) => e.code === "recording_not_found");
  const empty = await Deno.makeTempDir();
  const newer = await recording([{ tool: "click", arguments: {} }], { schema_version: 2 });
  const broken = await recording([{ tool: "click", arguments: {} }], "not an object");
  try {
    await assert.rejects(
      () => listTurns(empty),
      (e: DriverError) => e.code === "recording_invalid" && /No turn-NNNNN folders/.test(e.message),
    );
    await assert.rejects(
      () => listTurns(newer),
      (e: DriverError) =>
        e.code === "recording_format_unsupported" && e.refused && e.data.supported_schema_version === 1,
    );
    await assert.rejects(() => listTurns(broken), (e: DriverError) => e.code === "recording_invalid");
  } finally {
    for (const dir of [empty, newer, broken]) await Deno.remove(dir, { recursive: true });
  }
});
