/**
 * Attaching to a browser the user started with --remote-debugging-port: refused
 * without the launcher's existing-profile grant, admitted with it once the port is
 * proven to be that process's own; a port another process serves is refused; the
 * user's browser outlives the session.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { ToolResult } from "../../src/kernel/result.ts";
import { resolvePermissions } from "../../src/features/permissions/config.ts";
import { startRuntime } from "../../src/runtime.ts";
import { e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { describeResult, type Structured } from "../_helpers/in_process_driver.ts";
import { startWebFixture } from "../_helpers/web_fixture.ts";
import { waitFor } from "../_helpers/x11_probe.ts";

// Without Chromium the test is skipped, unless e2e tests are required (then it fails in browser_prepare).
const hasChromium = await Deno.stat("/usr/bin/chromium").then(() => true, () => false);
const ignore = ignoreWithoutDesktop() || (!hasChromium && !e2eRequired());

function refusalCode(result: ToolResult): string {
  assert.equal(result.isError, undefined, describeResult(result));
  return (result.structuredContent as Structured).refusal?.code;
}

Deno.test({
  name: "browser attach to an existing profile needs the grant and a port owned by the browser",
  ignore,
  async fn() {
    const started = performance.now();
    await using site = startWebFixture();
    const profile = await Deno.makeTempDir({ prefix: "cua-user-profile-" });
    const configDir = await Deno.makeTempDir({ prefix: "cua-test-config-" });
    Deno.env.set("CUA_DRIVER_CONFIG_DIR", configDir);
    const user = new Deno.Command("/usr/bin/chromium", {
      args: [
        ...(Deno.uid() === 0 ? ["--no-sandbox"] : []),
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-gpu",
        "--disable-quic",
        `--user-data-dir=${profile}`,
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        `${site.origin}/`,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const plain = await startRuntime({ desktop: "system", permissionMode: "standard" });
    const granted = await startRuntime({
      desktop: "system",
      permissions: await resolvePermissions({ grants: ["existing-profile"], env: () => undefined }),
    });
    const opts = (lease: string) => ({ lease, transport: "cli" as const, timeoutMs: 20_000 });
    try {
      let windowId = 0;
      for (let i = 0; i < 100 && !windowId; i++) {
        const listed = await plain.registry.call("list_windows", {}, opts("a"));
        assert.equal(listed.isError, undefined, describeResult(listed));
        const window = (listed.structuredContent as Structured).windows.find((w: Structured) =>
          w.pid === user.pid
        );
        if (window) windowId = window.window_id;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(windowId, "the user's browser has a window");
      const args = { pid: user.pid, window_id: windowId };

      // Standard mode without the grant: refused before any connection is made.
      assert.equal(
        refusalCode(await plain.registry.call("get_browser_state", args, opts("a"))),
        "browser_consent_required",
      );
      assert.equal(
        refusalCode(
          await plain.registry.call(
            "browser_prepare",
            { ...args, strategy: { kind: "existing_profile" } },
            opts("a"),
          ),
        ),
        "browser_consent_required",
      );

      // With the grant: a port the browser does not serve is refused; its own is admitted.
      const foreign = await granted.registry.call("page", {
        action: "get_text",
        ...args,
        cdp_port: Number(new URL(site.origin).port),
      }, opts("b"));
      assert.equal(refusalCode(foreign), "browser_endpoint_owner_mismatch");
      const sleeper = new Deno.Command("sleep", { args: ["30"] }).spawn();
      try {
        const notBrowser = await granted.registry.call("get_browser_state", { pid: sleeper.pid }, opts("b"));
        assert.equal(refusalCode(notBrowser), "browser_route_unavailable");
      } finally {
        sleeper.kill();
        await sleeper.status;
      }
      const prepared = await granted.registry.call("browser_prepare", {
        ...args,
        strategy: { kind: "existing_profile" },
      }, opts("b"));
      assert.equal((prepared.structuredContent as Structured).status, "ok", describeResult(prepared));
      const bound = (await granted.registry.call("get_browser_state", args, opts("b")))
        .structuredContent as Structured;
      assert.deepEqual([bound.status, bound.browser.source], ["ok", "existing_profile"]);
      assert.ok((bound.tabs as Structured[]).some((t) => t.url.startsWith(site.origin)));
      // The tab's URL is set when navigation starts; its title once the page is parsed.
      const snapshot = async () =>
        (await granted.registry.call(
          "get_browser_state",
          { target_id: bound.target_id, tab_id: bound.tabs[0].tab_id },
          opts("b"),
        )).structuredContent as Structured;
      const snap = await waitFor("the fixture page's title", async () => {
        const seen = await snapshot();
        return seen.title === "" ? null : seen;
      }, 15_000);
      assert.equal(snap.title, "Browser fixture");

      // The session ends; the user's browser stays.
      await granted.registry.call("end_session", {}, opts("b"));
      assert.ok(
        await Deno.stat(`/proc/${user.pid}`).then(() => true, () => false),
        "the user's browser still runs",
      );
    } finally {
      await plain.close();
      await granted.close();
      try {
        user.kill("SIGKILL");
      } catch {
        // Gone.
      }
      await user.status;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
      await Deno.remove(configDir, { recursive: true }).catch(() => {});
      console.log(`browser attach e2e: ${Math.round(performance.now() - started)} ms`);
    }
  },
});
