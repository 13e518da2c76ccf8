import assert from "node:assert/strict";
import { reasonOf } from "./call_abort.ts";
import { DriverError } from "../ports/errors.ts";
import { InputStop, stopsWithInput } from "./input_stop.ts";
import type { AnyTool } from "./tool.ts";

function tool(name: string, group: string, readOnly: boolean, capabilities: string[] = []): AnyTool {
  return {
    name,
    group,
    hints: { readOnly, destructive: false, idempotent: false, openWorld: false },
    capabilities,
  } as unknown as AnyTool;
}

const click = tool("click", "input", false);
const observe = tool("get_window_state", "windows", true);
const endSession = tool("end_session", "session", false);
const replay = tool("replay_trajectory", "system", false, ["recording.replay"]);

Deno.test("stopsWithInput: acting tools and replay stop, observation and bookkeeping do not", () => {
  assert.equal(stopsWithInput(click), true);
  assert.equal(stopsWithInput(tool("launch_app", "apps", false)), true);
  assert.equal(stopsWithInput(tool("clipboard_write", "clipboard", false)), true);
  assert.equal(stopsWithInput(tool("browser_click", "browser", false)), true);
  assert.equal(stopsWithInput(replay), true);
  assert.equal(stopsWithInput(observe), false);
  assert.equal(stopsWithInput(endSession), false);
  assert.equal(stopsWithInput(tool("set_config", "system", false)), false);
});

Deno.test("InputStop refuses acting calls while stopped and aborts the running ones", () => {
  const stop = new InputStop();
  stop.check(click);
  const running = new AbortController();
  const untrack = stop.track(running);
  const changes: boolean[] = [];
  stop.onChange((state) => changes.push(state.stopped));
  assert.deepEqual(stop.stop("view"), { changed: true, aborted: 1 });
  assert.equal(running.signal.aborted, true);
  assert.equal(reasonOf(running.signal), "input_stopped");
  untrack();
  assert.throws(
    () => stop.check(click),
    (e: unknown) => e instanceof DriverError && e.code === "input_stopped",
  );
  stop.check(observe);
  stop.check(endSession);
  assert.equal(stop.state.by, "view");
  assert.deepEqual(stop.stop("cli"), { changed: false, aborted: 0 }, "a second stop changes nothing");
  assert.equal(stop.state.by, "view");
  assert.equal(stop.resume(), true);
  assert.equal(stop.resume(), false);
  stop.check(click);
  assert.deepEqual(changes, [true, false]);
});
