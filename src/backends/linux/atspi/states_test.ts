import assert from "node:assert/strict";
import { stateWords } from "./_fake_app.ts";
import { decodeStates, hasState, State, stateNames } from "./states.ts";

Deno.test("hasState reads bits of both state words", () => {
  // GTK3 check box from widget-factory: enabled, focusable, sensitive, showing, visible, checked (word 0) + bit 41.
  const words = stateWords([State.CHECKED, State.ENABLED, State.SHOWING, State.CHECKABLE]);
  assert.ok(hasState(words, State.CHECKED));
  assert.ok(hasState(words, State.CHECKABLE));
  assert.ok(!hasState(words, State.FOCUSED));
  assert.ok(!hasState([], State.CHECKED));
});

Deno.test("hasState decodes a real GTK3 state set", () => {
  // 1124075776 = ENABLED, FOCUSABLE, SENSITIVE, SHOWING, VISIBLE (a push button in gtk3-widget-factory).
  const words = [1124075776, 0];
  assert.deepEqual(stateNames(words), ["enabled", "focusable", "sensitive", "showing", "visible"]);
});

Deno.test("decodeStates treats SENSITIVE alone as enabled (GTK4)", () => {
  assert.equal(decodeStates(stateWords([State.SENSITIVE])).enabled, true);
  assert.equal(decodeStates(stateWords([State.SHOWING])).enabled, false);
});

Deno.test("decodeStates reports checked, selected and whether they apply", () => {
  const box = decodeStates(stateWords([State.CHECKABLE, State.CHECKED]));
  assert.equal(box.checked, true);
  assert.equal(box.toggleable, true);
  const tab = decodeStates(stateWords([State.SELECTABLE, State.SELECTED, State.FOCUSED, State.EDITABLE]));
  assert.deepEqual([tab.selected, tab.toggleable, tab.focused, tab.editable], [true, true, true, true]);
  assert.equal(decodeStates([0, 0]).toggleable, false);
});
