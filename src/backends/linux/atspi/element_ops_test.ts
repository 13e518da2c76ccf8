import assert from "node:assert/strict";
import { DriverError } from "../../../ports/errors.ts";
import { DBusError, DBusErrorName } from "../../../lib/dbus/mod.ts";
import { FAKE_APP, FakeApp } from "./_fake_app.ts";
import * as ops from "./element_ops.ts";
import { formatValue, toRect } from "./enrich.ts";
import { AtspiPath, Iface } from "./interfaces.ts";
import { State } from "./states.ts";

const { ACTION, COMPONENT, TEXT, EDITABLE_TEXT, VALUE } = Iface;

function fake(): FakeApp {
  return new FakeApp([
    {
      path: "/cell",
      parent: null,
      role: 56,
      interfaces: [ACTION, COMPONENT],
      actions: [["toggle", "Toggle"], ["expand or contract", "Expands or contracts the row"], [
        "activate",
        "Activate",
      ]],
      states: [State.ENABLED, State.SHOWING, State.CHECKED, State.CHECKABLE],
    },
    { path: "/entry", parent: null, role: 61, interfaces: [COMPONENT, TEXT, EDITABLE_TEXT], text: "héllo" },
    { path: "/slider", parent: null, role: 51, interfaces: [VALUE], value: 10 },
    { path: AtspiPath.ROOT, parent: null, role: 75, interfaces: [Iface.APPLICATION] },
  ]);
}

const ref = (path: string) => ({ bus: FAKE_APP, path });

Deno.test("normalizeActionName keeps the last dotted segment's alphanumerics, lowercased", () => {
  assert.equal(ops.normalizeActionName("Click"), "click");
  assert.equal(ops.normalizeActionName("gtk.text.buffer-delete"), "bufferdelete");
  assert.equal(ops.normalizeActionName("Expand or contract"), "expandorcontract");
});

Deno.test("actionNames of an object without the Action interface is empty (Calc cells)", async () => {
  const app = fake();
  assert.deepEqual(await ops.actionNames(app, ref("/entry")), { names: [], localized: [] });
  // An object that vanished still fails: only a missing interface means "no actions".
  await assert.rejects(ops.actionNames(app, ref("/gone")));
});

Deno.test("doAction finds actions by name, localized name or normalized name", async () => {
  const app = fake();
  assert.equal(await ops.doAction(app, ref("/cell"), "activate"), true);
  assert.ok(app.calls.includes("Action.DoAction /cell"));
  assert.equal(await ops.doAction(app, ref("/cell"), "Toggle"), true);
  assert.equal(await ops.doAction(app, ref("/cell"), "EXPAND-or-contract"), true);
  const error = await ops.doAction(app, ref("/cell"), "launch").catch((e) => e);
  assert.ok(error instanceof DriverError);
  assert.equal(error.code, "invalid_arguments");
  assert.match(error.data.hint!, /toggle, expand or contract, activate/);
});

Deno.test("text helpers read, replace and insert text by character offset", async () => {
  const app = fake();
  assert.equal(await ops.getText(app, ref("/entry")), "héllo");
  assert.equal(await ops.insertText(app, ref("/entry"), 2, "✓"), true);
  assert.equal(await ops.getText(app, ref("/entry")), "hé✓llo");
  assert.equal(await ops.setTextContents(app, ref("/entry"), "new"), true);
  assert.equal(await ops.getText(app, ref("/entry")), "new");
});

Deno.test("insertText sends the length in UTF-8 bytes, or UTF-16 units to Qt", async () => {
  for (const toolkit of ["GTK", "Qt"]) {
    const app = fake();
    app.toolkit = toolkit;
    assert.equal(await ops.insertText(app, ref("/entry"), 5, " wörld ✓"), true);
    assert.equal(await ops.getText(app, ref("/entry")), "héllo wörld ✓", toolkit);
  }
});

Deno.test("value, focus and state helpers", async () => {
  const app = fake();
  assert.equal(await ops.getValue(app, ref("/slider")), 10);
  await ops.setValue(app, ref("/slider"), 12.5);
  assert.equal(await ops.getValue(app, ref("/slider")), 12.5);
  assert.equal(await ops.grabFocus(app, ref("/entry")), true);
  const state = await ops.getState(app, ref("/cell"));
  assert.equal(state.checked, true);
  assert.deepEqual(state.names, ["checked", "enabled", "showing", "checkable"]);
});

Deno.test("asRef rejects references that are not AT-SPI objects", () => {
  assert.deepEqual(ops.asRef({ bus: ":1.0", path: "/a" }), { bus: ":1.0", path: "/a" });
  for (const bad of [null, 3, {}, { bus: ":1.0" }, { bus: ":1.0", path: "a" }]) {
    assert.throws(() => ops.asRef(bad), (e: DriverError) => e.code === "invalid_element_token");
  }
});

Deno.test("toDriverError maps D-Bus failures to driver codes", () => {
  const r = ref("/x");
  const code = (name: string) => ops.toDriverError(new DBusError(name, ""), "GetText", r).code;
  assert.equal(code(DBusErrorName.TIMEOUT), "timeout");
  assert.equal(code(DBusErrorName.SERVICE_UNKNOWN), "window_stale");
  assert.equal(code(DBusErrorName.DISCONNECTED), "window_stale");
  assert.equal(code(DBusErrorName.UNKNOWN_OBJECT), "stale_element_token");
  assert.equal(code(DBusErrorName.UNKNOWN_METHOD), "native_call_failed");
});

Deno.test("toRect drops placeholder extents and formatValue prints numbers", () => {
  assert.deepEqual(toRect([1, 2, 30, 40]), { x: 1, y: 2, width: 30, height: 40 });
  assert.equal(toRect([-2147483648, -2147483648, 0, 0]), null);
  assert.equal(toRect([5, 5, 1, 20]), null);
  assert.equal(toRect(undefined), null);
  assert.equal(formatValue(0.5), "0.5");
  assert.equal(formatValue(50), "50");
  assert.equal(formatValue("x"), null);
});
