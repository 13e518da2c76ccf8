import assert from "node:assert/strict";
import { DriverError } from "../../../ports/errors.ts";
import { AtspiAccessibility } from "./atspi_backend.ts";

const LIMITS = { maxNodes: 100, maxDepth: 10 };

Deno.test("AtspiAccessibility.tree reports an unreachable session bus as accessibility_unavailable", async () => {
  for (const sessionBusAddress of ["unix:path=/nonexistent/cua-driver-bus", ""]) {
    const ax = new AtspiAccessibility({ windowBounds: () => Promise.resolve(null), sessionBusAddress });
    const error = await ax.tree(1, 1, LIMITS, new AbortController().signal).catch((e) => e);
    assert.ok(error instanceof DriverError, String(error));
    assert.equal(error.code, "accessibility_unavailable");
    assert.match(error.data.hint ?? "", /at-spi-bus-launcher/);
    assert.match(error.data.hint ?? "", /DBUS_SESSION_BUS_ADDRESS/);
    await ax.close();
  }
});

Deno.test("AtspiAccessibility element methods refuse references that are not AT-SPI objects", async () => {
  const ax = new AtspiAccessibility({ windowBounds: () => Promise.resolve(null), sessionBusAddress: "" });
  await assert.rejects(
    ax.doAction({ nope: 1 }, "click"),
    (e: DriverError) => e.code === "invalid_element_token",
  );
  await ax.close();
});

Deno.test("AtspiAccessibility.tree honours an aborted signal before connecting", async () => {
  const ax = new AtspiAccessibility({ windowBounds: () => Promise.resolve(null), sessionBusAddress: "" });
  const controller = new AbortController();
  controller.abort(new Error("stop"));
  await assert.rejects(ax.tree(1, 1, LIMITS, controller.signal), (e: DriverError) => e.code === "aborted");
  await ax.close();
});
