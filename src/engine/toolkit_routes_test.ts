import assert from "node:assert/strict";
import { DriverError } from "../ports/errors.ts";
import { insertsText, refuseBackgroundFor } from "./toolkit_routes.ts";

function refusal(run: () => void): DriverError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof DriverError);
    return error;
  }
  assert.fail("expected a refusal");
}

Deno.test("refuseBackgroundFor gives Firefox typing a hint that works, not the element_token it ignores", () => {
  // Typing by element_token reaches this refusal on Firefox: the accessibility insert is skipped there.
  assert.equal(insertsText("gecko"), false);
  const error = refusal(() => refuseBackgroundFor("gecko", "keyboard"));
  assert.equal(error.code, "background_unavailable");
  const hint = String(error.data.hint);
  assert.match(hint, /delivery_mode "foreground"/);
  assert.doesNotMatch(hint, /pass its element_token/);
  assert.match(hint, /Chromium pages only/);
});

Deno.test("refuseBackgroundFor lets Qt typing through accessibility stand as its hint says", () => {
  assert.equal(insertsText("qt"), true);
  const error = refusal(() => refuseBackgroundFor("qt", "keyboard"));
  assert.match(String(error.data.hint), /element_token/);
});
