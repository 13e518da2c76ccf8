/**
 * The daemon with real clients: `cua-driver serve` in a subprocess, the CLI's
 * `call`/`status`/`stop`, and the official MCP SDK client over `mcp --socket`.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startDaemon } from "../_helpers/daemon.ts";
import { driverArgs, runDriver } from "../_helpers/driver.ts";
import { startFixture } from "../_helpers/fixture_app.ts";

const ignore = ignoreWithoutDesktop();

Deno.test({
  name: "daemon serves call, status and stop, and the CLI says clearly when it is not running",
  ignore,
  async fn() {
    const daemon = await startDaemon();
    try {
      const info = await Deno.stat(daemon.socket);
      assert.equal(info.mode! & 0o777, 0o600, "socket is mode 0600");
      const size = await runDriver(["call", "get_screen_size", "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(size.code, 0, size.stderr);
      assert.equal(JSON.parse(size.stdout).width, 1920);
      const status = await runDriver(["status", "--socket", daemon.socket], { env: daemon.env });
      assert.match(status.stdout, /daemon is running/);
      const bad = await runDriver(["call", "get_window_state", '{"pid": "x"}', "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /invalid_arguments|Invalid arguments/);
      const stop = await runDriver(["stop", "--socket", daemon.socket], { env: daemon.env });
      assert.equal(stop.code, 0);
      assert.equal(stop.stdout.trim(), `cua-driver: stopped the daemon on ${daemon.socket}`);
      const after = await runDriver(["call", "get_screen_size", "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(after.code, 1);
      assert.match(after.stderr, /daemon is not running/);
    } finally {
      await daemon.stop();
    }
  },
});

Deno.test({
  name: "daemon keeps a named session across CLI processes: a token read by one call clicks in the next",
  ignore,
  sanitizeResources: false,
  async fn() {
    const daemon = await startDaemon();
    const fixture = await startFixture(daemon.env, { title: "Daemon session fixture" });
    try {
      const read = await runDriver([
        "call",
        "get_window_state",
        JSON.stringify({
          pid: fixture.pid,
          window_id: fixture.xid,
          include_screenshot: false,
          session: "s1",
        }),
        "--socket",
        daemon.socket,
      ], { env: daemon.env });
      assert.equal(read.code, 0, read.stderr);
      const button = JSON.parse(read.stdout).elements.find((e: { label: string }) =>
        e.label === "btn-increment"
      );
      const click = await runDriver([
        "call",
        "click",
        JSON.stringify({ element_token: button.element_token, session: "s1" }),
        "--socket",
        daemon.socket,
      ], { env: daemon.env });
      assert.equal(click.code, 0, click.stderr);
      await fixture.waitFor((e) => e.counter === 1);
      const other = await runDriver([
        "call",
        "click",
        JSON.stringify({ element_token: button.element_token }),
        "--socket",
        daemon.socket,
      ], { env: daemon.env });
      assert.equal(other.code, 1, "a token does not resolve in another session");
      assert.match(other.stderr + other.stdout, /stale_element_token/);
    } finally {
      await fixture.stop();
      await daemon.stop();
    }
  },
});

Deno.test({
  name: "daemon serves the official MCP SDK client through mcp --socket and survives a killed client",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const daemon = await startDaemon();
    try {
      const client = new Client({ name: "cua-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: Deno.execPath(),
          args: driverArgs("mcp", "--socket", daemon.socket),
          env: daemon.env,
          stderr: "inherit",
        }),
      );
      const { tools } = await client.listTools();
      assert.ok(tools.some((t: { name: string }) => t.name === "get_window_state"));
      const cursor = await client.callTool({ name: "get_cursor_position", arguments: {} });
      assert.equal((cursor.structuredContent as { source: string }).source, "x11");
      await client.close();

      // A client killed mid-call: the daemon keeps serving.
      const victim = new Deno.Command(Deno.execPath(), {
        args: driverArgs("mcp", "--socket", daemon.socket),
        env: daemon.env,
        clearEnv: true,
        stdin: "piped",
        stdout: "null",
        stderr: "null",
      }).spawn();
      const writer = victim.stdin.getWriter();
      await writer.write(new TextEncoder().encode(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_desktop_state","arguments":{}}}\n',
      ));
      await new Promise((r) => setTimeout(r, 150));
      victim.kill("SIGKILL");
      await victim.status;
      const again = await runDriver(["call", "get_screen_size", "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(again.code, 0, again.stderr);
    } finally {
      await daemon.stop();
    }
  },
});

Deno.test({
  name: "daemon client refuses a socket owned by another user",
  ignore: ignore || Deno.uid() !== 0,
  async fn() {
    const daemon = await startDaemon();
    try {
      await Deno.chown(daemon.socket, 65534, 65534);
      const result = await runDriver(["call", "get_screen_size", "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /belongs to uid 65534/);
    } finally {
      await daemon.stop();
    }
  },
});

Deno.test({
  name: "a bounded daemon refuses tools outside its manifest from the CLI and from MCP",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const manifest = await Deno.makeTempFile({ suffix: ".yaml" });
    await Deno.writeTextFile(
      manifest,
      "version: 3\nexpires_after: 1h\nidle_timeout: 30m\nallow:\n  tools: [get_screen_size]\n",
    );
    const daemon = await startDaemon([
      "--permission-mode",
      "bounded",
      "--capability-manifest",
      manifest,
      "--approve-capability-manifest",
    ]);
    try {
      const allowed = await runDriver(["call", "get_screen_size", "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(allowed.code, 0, allowed.stderr);
      const denied = await runDriver(["call", "list_windows", "--socket", daemon.socket], {
        env: daemon.env,
      });
      assert.equal(denied.code, 1);
      assert.match(denied.stderr, /permission_denied|Permission denied/);
      const lines = [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_desktop_state","arguments":{}}}',
      ].join("\n") + "\n";
      const mcp = await runDriver(["mcp", "--socket", daemon.socket], { env: daemon.env, stdin: lines });
      const call = JSON.parse(mcp.stdout.trim().split("\n")[1]);
      assert.equal(call.result.isError, true);
      assert.equal(call.result.structuredContent.code, "permission_denied");
    } finally {
      await daemon.stop();
      await Deno.remove(manifest);
    }
  },
});
