/**
 * The daemon on Windows (under Wine): `cua-driver serve --socket \\.\pipe\...` in its own
 * deno.exe process, reached through the named pipe by a client in the test process (tool
 * calls judged by notepad's own text, its pid file read back) and by the CLI's `status`
 * in a third process, then stopped by a `shutdown` request (pipe and pid file gone).
 *
 * @module
 */
import assert from "node:assert/strict";
import { CACHED_ONLY } from "../../scripts/deno_child.ts";
import { NamedPipes } from "../../src/backends/windows/pipes.ts";
import { DaemonClient } from "../../src/transports/daemon/client.ts";
import type { ToolResult } from "../../src/kernel/result.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import { onWindows, StockApp, textOf, waitFor } from "./_win_apps.ts";

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname.replace(/^\/([A-Za-z]:)/, "$1");
/** deno.exe takes 40–60 s to start the driver from source under a loaded Wine. */
const START_MS = 240_000;

function driver(args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--no-check", ...CACHED_ONLY, MAIN, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

async function call(client: DaemonClient, name: string, args: Record<string, unknown>): Promise<Structured> {
  const response = await client.request({ method: "call", name, args });
  assert.ok(response.ok, response.error);
  const result = response.result as ToolResult;
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.structuredContent)}`);
  return (result.structuredContent ?? {}) as Structured;
}

Deno.test({
  name: "daemon on Windows serves tools over an owner-only named pipe to other processes, then stops",
  ignore: !onWindows,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using notepad = await StockApp.start("notepad.exe", [], "Notepad");
    const pipes = new NamedPipes();
    const pipe = `\\\\.\\pipe\\cua-test-${crypto.randomUUID()}`;
    const serve = driver(["serve", "--socket", pipe]).spawn();
    const stderr = new Response(serve.stderr).text();
    void new Response(serve.stdout).text();
    let stopped = false;
    try {
      const client = await waitFor(
        "the daemon to answer on its pipe",
        () => DaemonClient.connect(pipes, pipe).catch(() => null),
        START_MS,
      );
      try {
        const meta = await client.request({ method: "metadata" });
        assert.equal((meta.result as Structured).pid, serve.pid, "the daemon process answers");
        const pidFile = pipes.pidFile(pipe);
        assert.equal((await Deno.readTextFile(pidFile)).trim(), String(serve.pid), pidFile);
        const target = { pid: notepad.pid, window_id: notepad.windowId };
        const state = await call(client, "get_window_state", target);
        const edit = (state.elements as Structured[]).find((e) => e.role === "Edit");
        assert.ok(edit, "notepad's edit is in the daemon's snapshot");
        const text = "through the pipe ✓";
        await call(client, "type_text", { ...target, element_token: edit.element_token, text });
        await waitFor("notepad's text", () => textOf(notepad.control("Edit")) === text);

        const status = await driver(["status", "--socket", pipe]).output();
        const out = new TextDecoder().decode(status.stdout);
        assert.equal(status.code, 0, new TextDecoder().decode(status.stderr));
        assert.match(out, new RegExp(`pid: ${serve.pid}`));

        await client.request({ method: "shutdown" }).catch(() => {});
      } finally {
        client.close();
      }
      assert.equal((await serve.status).code, 0, await stderr);
      stopped = true;
      await assert.rejects(() => DaemonClient.connect(pipes, pipe), /not running/);
      await assert.rejects(
        () => Deno.stat(pipes.pidFile(pipe)),
        Deno.errors.NotFound,
        "the pid file is removed",
      );
    } catch (error) {
      if (!stopped) {
        try {
          serve.kill();
        } catch {
          // Already stopped.
        }
      }
      throw new Error(`${(error as Error).message}\nthe daemon's stderr:\n${await stderr}`);
    } finally {
      try {
        serve.kill();
      } catch {
        // Already stopped.
      }
      await serve.status;
    }
  },
});
