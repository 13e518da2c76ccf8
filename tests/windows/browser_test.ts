/**
 * The browser launch's program search on Windows: Chrome and Edge live off PATH and are
 * found through the App Paths registry, as Explorer's Run box finds them. No Windows
 * Chrome or Edge can be installed here, so a stock program is registered in Edge's place
 * (HKCU, removed afterwards) and the search must return exactly that file.
 *
 * @module
 */
import assert from "node:assert/strict";
import { findBrowser } from "../../src/features/browser/launch.ts";
import { createWindowsSystem } from "../../src/backends/windows/system.ts";
import { onWindows } from "./_win_apps.ts";

const EDGE_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\App Paths\\msedge.exe";

async function reg(args: string[]): Promise<void> {
  const out = await new Deno.Command("reg", { args, stdout: "null", stderr: "piped" }).output();
  assert.equal(out.code, 0, `reg ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

Deno.test({
  name: "findBrowser on Windows finds Edge (msedge.exe) through App Paths when no Chromium is on PATH",
  ignore: !onWindows,
  async fn() {
    const system = createWindowsSystem();
    assert.equal(Deno.env.get("CUA_DRIVER_BROWSER"), undefined);
    const standIn = `${Deno.env.get("SystemRoot") ?? "C:\\windows"}\\notepad.exe`;
    await reg(["add", EDGE_KEY, "/ve", "/d", standIn, "/f"]);
    try {
      assert.equal((await findBrowser(system)).toLowerCase(), standIn.toLowerCase());
    } finally {
      await reg(["delete", EDGE_KEY, "/f"]);
    }
    await assert.rejects(() => findBrowser(system), /No Chromium-family browser/);
  },
});
