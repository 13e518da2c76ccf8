import assert from "node:assert/strict";
import { activePort, devToolsFlags, isChromiumBrowser, portOf } from "./endpoint.ts";

Deno.test("isChromiumBrowser accepts a browser's main process, not its helpers or other programs", () => {
  assert.equal(isChromiumBrowser(["/usr/lib/chromium/chromium", "--no-sandbox"]), true);
  assert.equal(isChromiumBrowser(["/opt/google/chrome/chrome"]), true);
  assert.equal(isChromiumBrowser(["C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"]), true);
  assert.equal(
    isChromiumBrowser(["C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe"]),
    true,
  );
  assert.equal(isChromiumBrowser(["C:\\Edge\\msedge.exe", "--type=gpu-process"]), false);
  assert.equal(isChromiumBrowser(["C:\\Windows\\notepad.exe"]), false);
  assert.equal(isChromiumBrowser(["/usr/lib/chromium/chromium", "--type=renderer"]), false);
  assert.equal(isChromiumBrowser(["/usr/bin/firefox"]), false);
  assert.equal(isChromiumBrowser([]), false);
});

Deno.test("devToolsFlags and portOf read the port flag or DevToolsActivePort", async () => {
  assert.deepEqual(devToolsFlags(["chromium", "--remote-debugging-port=9222"]), {
    port: 9222,
    userDataDir: null,
  });
  assert.deepEqual(devToolsFlags(["chromium"]), { port: null, userDataDir: null });
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(await activePort(dir), null);
    await Deno.writeTextFile(`${dir}/DevToolsActivePort`, "41125\n/devtools/browser/x\n");
    assert.equal(await portOf(["chromium", "--remote-debugging-port=0", `--user-data-dir=${dir}`]), 41125);
    assert.equal(await portOf(["chromium", "--remote-debugging-port=9333"]), 9333);
    assert.equal(await portOf(["chromium"]), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
