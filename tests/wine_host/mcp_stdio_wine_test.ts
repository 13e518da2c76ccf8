/**
 * The MCP server as `deno.exe ... mcp` under Wine, driven over stdio by the official
 * MCP SDK client running on Linux: initialize, tools/list, and tool calls that act on
 * Wine's notepad. What landed is read back by a separate deno.exe process through
 * WM_GETTEXT, not from the server's replies.
 *
 * Runs inside a harness started by `sh scripts/wine.sh test` (CUA_WINE_EXEC names the
 * script); skipped otherwise.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const WINE_EXEC = Deno.env.get("CUA_WINE_EXEC");
const DENO_EXE = "Z:\\opt\\deno\\deno.exe";

type Content = { type: string; text?: string; mimeType?: string; data?: string }[];
// deno-lint-ignore no-explicit-any
type Structured = Record<string, any>;

async function wineDeno(...args: string[]): Promise<string> {
  const output = await new Deno.Command("bash", {
    args: [WINE_EXEC!, "exec", DENO_EXE, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(output.success, `deno.exe ${args.join(" ")} failed`);
  return new TextDecoder().decode(output.stdout).trim();
}

Deno.test({
  name: "deno.exe mcp under Wine serves the MCP SDK client on Linux over stdio: tools/list and notepad calls",
  ignore: !WINE_EXEC,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const client = new Client({ name: "cua-wine-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: "bash",
      args: [WINE_EXEC!, "exec", DENO_EXE, "run", "-A", "--no-check", "src/main.ts", "mcp"],
      env: Deno.env.toObject(),
      stderr: "inherit",
    });
    let pid = 0;
    try {
      // deno.exe loads the whole driver under Wine before it answers initialize: minutes on a loaded 2-core machine.
      await client.connect(transport, { timeout: 300_000 });
      assert.equal(client.getServerVersion()?.name, "cua-driver");
      const { tools } = await client.listTools();
      const names = tools.map((t: { name: string }) => t.name);
      for (const name of ["get_window_state", "list_windows", "type_text", "click", "launch_app"]) {
        assert.ok(names.includes(name), `${name} listed`);
      }
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
        assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result.content).slice(0, 500)}`);
        return result;
      };
      const size = (await call("get_screen_size", {})).structuredContent as Structured;
      assert.deepEqual([size.width, size.height], [1280, 1024], "the harness's Xvfb screen");

      pid = ((await call("launch_app", { name: "notepad" })).structuredContent as Structured).pid;
      assert.ok(pid > 0, "launch_app returns the pid");
      let windowId = 0;
      for (let i = 0; i < 200 && !windowId; i++) {
        const list = (await call("list_windows", {})).structuredContent as Structured;
        windowId = (list.windows as Structured[]).find((w) => w.pid === pid)?.window_id ?? 0;
        if (!windowId) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(windowId, "notepad's window is listed");

      const state = await call("get_window_state", { pid, window_id: windowId });
      const image = (state.content as Content).find((part) => part.type === "image");
      assert.equal(image?.mimeType, "image/png");
      const edit = ((state.structuredContent as Structured).elements as Structured[]).find((e) =>
        e.role === "Edit"
      );
      assert.ok(edit, "the edit is an element");
      const text = "MCP → Wine ✓ 日本";
      await call("type_text", { pid, window_id: windowId, element_token: edit.element_token, text });
      assert.deepEqual(
        JSON.parse(await wineDeno("run", "-A", "--no-check", "tests/windows/read_edit.ts", String(windowId))),
        [
          text,
        ],
      );
    } finally {
      if (pid) await client.callTool({ name: "kill_app", arguments: { pid } }).catch(() => {});
      await client.close();
    }
  },
});
