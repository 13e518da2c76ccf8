import assert from "node:assert/strict";
import { isPrivateTurn, isRecorded, redactArguments, REDACTED } from "./policy.ts";

const hints = (readOnly: boolean) => ({ readOnly, destructive: false, idempotent: false, openWorld: false });

Deno.test("isRecorded takes non-read-only tools except the recording controls and batches", () => {
  assert.equal(isRecorded({ name: "click", hints: hints(false) }), true);
  assert.equal(isRecorded({ name: "launch_app", hints: hints(false) }), true);
  assert.equal(isRecorded({ name: "get_window_state", hints: hints(true) }), false);
  for (const name of ["start_recording", "stop_recording", "replay_trajectory", "run_actions"]) {
    assert.equal(isRecorded({ name, hints: hints(false) }), false, name);
  }
});

Deno.test("redactArguments hides clipboard contents, file lists, prompt text and download roots", () => {
  assert.deepEqual(redactArguments("clipboard_write", { text: "secret", _meta: {} }), {
    arguments: { text: REDACTED },
    redacted: ["text"],
  });
  assert.deepEqual(redactArguments("browser_set_input_files", { ref: "e1", files: ["/a"] }).arguments, {
    ref: "e1",
    files: REDACTED,
  });
  assert.deepEqual(redactArguments("browser_dialog", { action: "accept", prompt_text: "pw" }).redacted, [
    "prompt_text",
  ]);
  assert.deepEqual(redactArguments("type_text", { text: "hello" }), {
    arguments: { text: "hello" },
    redacted: [],
  });
});

Deno.test("isPrivateTurn marks existing-profile browser_prepare calls", () => {
  assert.equal(isPrivateTurn("browser_prepare", { strategy: { kind: "existing_profile" } }), true);
  assert.equal(isPrivateTurn("browser_prepare", { allow_launch: true }), false);
  assert.equal(isPrivateTurn("click", { strategy: { kind: "existing_profile" } }), false);
});
