/**
 * Input stops when its call is aborted, for every way a call can be: the caller cancels
 * (an AbortSignal, and MCP `notifications/cancelled`), the client goes away (MCP stdio
 * closed, the daemon connection closed), its session ends, and the target app exits. Each
 * time a slow type_text (25 ms a character) is cut short, and the fixture app's journal
 * shows it: after a barrier (a click the X server delivers after every key already sent)
 * the field holds exactly what the driver says it delivered, and a second barrier finds it
 * unchanged. How fast it stops is measured in scripts/bench_cancel.ts.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startRuntime } from "../../src/runtime.ts";
import { systemFor } from "../../src/backends/mod.ts";
import { DaemonClient } from "../../src/transports/daemon/client.ts";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { type FixtureApp, startFixture } from "../_helpers/fixture_app.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import { settledText } from "../_helpers/settled_text.ts";

const ignore = ignoreWithoutDesktop();
const TEXT = "x".repeat(400);
const DELAY_MS = 25;

/** Arguments that type TEXT slowly into the fixture's entry through keystrokes (its pixel). */
function typing(app: FixtureApp, scale: number): Record<string, unknown> {
  const entry = app.widgets["txt-input"];
  return {
    target: { kind: "window", pid: app.pid, window_id: app.xid },
    x: Math.round((entry.x + entry.width / 2) * scale),
    y: Math.round((entry.y + entry.height / 2) * scale),
    text: TEXT,
    delay_ms: DELAY_MS,
  };
}

/** Waits until typing is under way (the app shows a few characters); fails with the call's answer if it ended first. */
async function typingStarted(app: FixtureApp, call: Promise<unknown>): Promise<void> {
  const ended = call.then((answer) => {
    throw new Error(`type_text ended before typing showed: ${JSON.stringify(answer).slice(0, 600)}`);
  });
  await Promise.race([
    app.waitFor((e) => typeof e.mirror === "string" && e.mirror.length >= 8, 15_000),
    ended,
  ]);
  ended.catch(() => {});
}

/** The checks every kind of abort must pass. */
async function stoppedAt(app: FixtureApp, delivered: number | null, label: string): Promise<void> {
  const first = await settledText(app);
  assert.ok(first.length < TEXT.length, `${label}: typing stopped early (${first.length} of ${TEXT.length})`);
  if (delivered !== null) {
    assert.equal(first.length, delivered, `${label}: the app holds what the driver says it delivered`);
  }
  const second = await settledText(app);
  assert.equal(second, first, `${label}: nothing arrived after the abort`);
}

Deno.test({
  name:
    "input stops on every kind of abort: cancel, session end, target exit, client gone over MCP and the daemon",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const env = desktopEnv();
    Deno.env.set("CUA_DRIVER_CONFIG_DIR", await Deno.makeTempDir({ prefix: "cua-test-config-" }));
    const runtime = await startRuntime({ desktop: "system", permissionMode: "standard" });
    const call = (name: string, args: unknown, lease: string, signal?: AbortSignal) =>
      runtime.registry.call(name, args, { lease, transport: "cli", signal });
    /** A fresh fixture, observed by `observe` (the caller's own session needs the screenshot). */
    const fresh = async (
      title: string,
      observe: (args: Record<string, unknown>) => Promise<unknown>,
    ) => {
      const app = await startFixture(env, { title, x: 60, y: 60 });
      const state = await observe({ pid: app.pid, window_id: app.xid }) as { structuredContent?: Structured };
      const scale = state.structuredContent?.screenshot_scale;
      assert.equal(typeof scale, "number", JSON.stringify(state).slice(0, 400));
      return { app, scale: scale as number };
    };
    try {
      await t.step("the caller cancels (its AbortSignal)", async () => {
        const { app, scale } = await fresh("Cancel", (args) => call("get_window_state", args, "a"));
        await using _app = app;
        const controller = new AbortController();
        const result = call("type_text", typing(app, scale), "a", controller.signal);
        await typingStarted(app, result);
        controller.abort();
        const envelope = (await result).structuredContent as Structured;
        assert.equal(envelope.code, "aborted");
        assert.equal(envelope.reason, "cancelled");
        await stoppedAt(app, envelope.delivered_count, "cancel");
      });

      await t.step("its session ends (end_session from the same connection)", async () => {
        const { app, scale } = await fresh(
          "Session end",
          (args) => call("get_window_state", { ...args, session: "typist" }, "b"),
        );
        await using _app = app;
        const result = call("type_text", { ...typing(app, scale), session: "typist" }, "b");
        await typingStarted(app, result);
        const ended = await call("end_session", { session: "typist" }, "b");
        assert.equal(ended.isError, undefined, JSON.stringify(ended.structuredContent));
        const envelope = (await result).structuredContent as Structured;
        assert.equal(envelope.code, "aborted");
        assert.equal(envelope.reason, "session_ended");
        await stoppedAt(app, envelope.delivered_count, "session end");
      });

      await t.step("the target app exits", async () => {
        const { app, scale } = await fresh("Target exit", (args) => call("get_window_state", args, "c"));
        await using _app = app;
        const result = call("type_text", typing(app, scale), "c");
        await typingStarted(app, result);
        Deno.kill(app.pid, "SIGKILL");
        await app.status;
        const envelope = (await result).structuredContent as Structured;
        assert.equal(envelope.code, "aborted");
        assert.equal(envelope.reason, "target_exited");
        assert.ok(envelope.delivered_count < TEXT.length);
      });

      await t.step("MCP notifications/cancelled over stdio", async () => {
        const client = new Client({ name: "cua-cancel", version: "1.0.0" });
        await client.connect(
          new StdioClientTransport({
            command: Deno.execPath(),
            args: driverArgs("mcp", "--desktop", "system"),
            env: driverEnv(),
            stderr: "ignore",
          }),
        );
        const { app, scale } = await fresh(
          "MCP cancel",
          (args) => client.callTool({ name: "get_window_state", arguments: args }),
        );
        await using _app = app;
        try {
          const controller = new AbortController();
          const result = client.callTool({ name: "type_text", arguments: typing(app, scale) }, undefined, {
            signal: controller.signal,
            timeout: 120_000,
          }).catch((error: unknown) => error);
          await typingStarted(app, new Promise(() => {}));
          controller.abort();
          assert.ok(await result instanceof Error, "the SDK gave up the request");
          await stoppedAt(app, null, "MCP cancel");
        } finally {
          await client.close();
        }
      });

      await t.step("the MCP stdio client goes away", async () => {
        const client = new Client({ name: "cua-gone", version: "1.0.0" });
        await client.connect(
          new StdioClientTransport({
            command: Deno.execPath(),
            args: driverArgs("mcp", "--desktop", "system"),
            env: driverEnv(),
            stderr: "ignore",
          }),
        );
        const { app, scale } = await fresh(
          "MCP gone",
          (args) => client.callTool({ name: "get_window_state", arguments: args }),
        );
        await using _app = app;
        const result = client.callTool({ name: "type_text", arguments: typing(app, scale) }, undefined, {
          timeout: 120_000,
        });
        result.catch(() => {});
        await typingStarted(app, result);
        await client.close();
        await stoppedAt(app, null, "MCP client gone");
      });

      await t.step("the daemon connection closes", async () => {
        const dir = await Deno.makeTempDir({ prefix: "cua-cancel-daemon-" });
        const socket = `${dir}/d.sock`;
        const serve = new Deno.Command(Deno.execPath(), {
          args: driverArgs("serve", "--desktop", "system", "--socket", socket),
          env: driverEnv(),
          clearEnv: true,
          stdin: "null",
          stdout: "null",
          stderr: "piped",
        }).spawn();
        try {
          const reader = serve.stderr.pipeThrough(new TextDecoderStream()).getReader();
          let log = "";
          while (!log.includes("listening")) {
            const { value, done } = await reader.read();
            if (done) throw new Error(`serve exited: ${log}`);
            log += value;
          }
          void (async () => {
            while (!(await reader.read()).done) { /* drain */ }
          })();
          const client = await DaemonClient.connect((await systemFor()).sockets, socket);
          const { app, scale } = await fresh(
            "Daemon gone",
            (args) => client.call("get_window_state", args, { lease: "d", transport: "daemon" }),
          );
          await using _app = app;
          const result = client.call("type_text", typing(app, scale), { lease: "d", transport: "daemon" });
          await typingStarted(app, result);
          client.close();
          await stoppedAt(app, null, "daemon connection closed");
        } finally {
          serve.kill("SIGTERM");
          await serve.status;
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        }
      });
    } finally {
      await runtime.close();
    }
  },
});
