import assert from "node:assert/strict";
import { FakeBackend } from "../../backends/fake/mod.ts";
import { systemFor } from "../../backends/mod.ts";
import type { WindowInfo } from "../../ports/windows.ts";
import { ToolRegistry } from "../../kernel/registry.ts";
import { RuntimeState } from "../../kernel/runtime_state.ts";
import { allTools } from "../../../tools/mod.ts";
import { resolvePermissions } from "./config.ts";
import { createResourceScope } from "./resource_scope.ts";

function windowOf(pid: number, windowId: number, title: string): WindowInfo {
  return {
    windowId,
    pid,
    appName: title,
    title,
    bounds: { x: 0, y: 0, width: 100, height: 100 },
    isOnScreen: true,
    zIndex: windowId,
  };
}

Deno.test("bounded mode lists only the manifest's processes and windows: list_windows, get_accessibility_tree, list_apps, get_desktop_state", async () => {
  const manifest = await Deno.makeTempFile({ suffix: ".yaml" });
  // Real processes, so their executables can be read: sleep is in the manifest, cat is not.
  const allowed = new Deno.Command("/bin/sleep", { args: ["60"] }).spawn();
  const hidden = new Deno.Command("/bin/cat", { stdin: "piped" }).spawn();
  try {
    await Deno.writeTextFile(
      manifest,
      `version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [list_windows, get_accessibility_tree, list_apps, get_desktop_state]
resources:
  apps:
    - executable: sleep
  desktop: { display: true }
`,
    );
    const permissions = await resolvePermissions({
      mode: "bounded",
      manifestPath: manifest,
      approveManifest: true,
      env: () => undefined,
    });
    const backend = new FakeBackend();
    for (const pid of [allowed.pid, hidden.pid]) backend.alive.add(pid);
    backend.windowsList = [
      windowOf(allowed.pid, 11, "Allowed notes"),
      windowOf(hidden.pid, 22, "Secret bank statement"),
    ];
    backend.processes = [{ pid: allowed.pid, name: "sleep" }, { pid: hidden.pid, name: "cat" }];
    const state = new RuntimeState(
      undefined,
      "bounded",
      new Set(),
      undefined,
      createResourceScope(permissions, await systemFor("linux")),
    );
    const registry = new ToolRegistry(allTools, backend, state);
    const call = async (name: string) => {
      const result = await registry.call(name, {}, { lease: "l", transport: "cli" });
      assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
      return JSON.stringify(result);
    };
    for (const tool of ["list_windows", "get_accessibility_tree", "get_desktop_state", "list_apps"]) {
      const shown = await call(tool);
      assert.doesNotMatch(shown, /Secret bank statement/, `${tool} shows no title outside the manifest`);
      assert.doesNotMatch(
        shown,
        new RegExp(`\\b${hidden.pid}\\b`),
        `${tool} shows no pid outside the manifest`,
      );
      if (tool !== "list_apps") {
        assert.match(shown, new RegExp(`\\b${allowed.pid}\\b`), `${tool} shows the allowed one`);
      }
    }
    // Outside bounded mode everything is listed.
    const open = new ToolRegistry(allTools, backend, new RuntimeState());
    const all = JSON.stringify(await open.call("list_windows", {}, { lease: "l", transport: "cli" }));
    assert.match(all, /Secret bank statement/);
  } finally {
    allowed.kill();
    await allowed.status;
    hidden.kill();
    await hidden.status;
    await Deno.remove(manifest);
  }
});
