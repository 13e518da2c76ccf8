/**
 * Input from several sessions is admitted one action at a time: two agents typing
 * into the same field at once never interleave their keystrokes.
 */
import assert from "node:assert/strict";
import { startRuntime } from "../../src/runtime.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

Deno.test({
  name: "two sessions typing at once: each text arrives whole, one after the other",
  ignore: ignoreWithoutDesktop(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    Deno.env.set("CUA_DRIVER_CONFIG_DIR", await Deno.makeTempDir());
    const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
    await using app = await startFixture(desktopEnv(), { title: "Input lock", x: 900, y: 40 });
    try {
      const agent = (lease: string) => (name: string, args: Record<string, unknown>) =>
        runtime.registry.call(name, args, { lease, transport: "mcp_stdio" });
      const a = agent("agent-a"), b = agent("agent-b");
      const field = app.widgets["txt-input"];
      const target = { pid: app.pid, window_id: app.xid, x: field.x + 10, y: field.y + 5 };
      for (const call of [a, b]) {
        const state = await call("get_window_state", { pid: app.pid, window_id: app.xid });
        assert.equal(state.isError, undefined);
      }
      const textA = "a".repeat(60), textB = "B".repeat(60);
      const [ra, rb] = await Promise.all([
        a("type_text", { ...target, text: textA }),
        b("type_text", { ...target, text: textB }),
      ]);
      assert.equal(ra.isError, undefined, JSON.stringify(ra.structuredContent));
      assert.equal(rb.isError, undefined, JSON.stringify(rb.structuredContent));
      // The app's own record of every key it received, in order.
      await app.waitFor((e) => e.event === "key" && (e.key_presses as number) >= 120, 5000);
      const keys = (await app.readJournal()).filter((e) =>
        e.event === "key" && String(e.last_key).length === 1
      )
        .map((e) => e.last_key).join("");
      assert.ok(keys === textA + textB || keys === textB + textA, `interleaved keystrokes: ${keys}`);
    } finally {
      await runtime.close();
    }
  },
});
