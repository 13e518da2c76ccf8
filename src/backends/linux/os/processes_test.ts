import assert from "node:assert/strict";
import { join } from "node:path";
import { monotonicMs, ownsTcpListener, processCommandLine, processExecutable } from "./processes.ts";

Deno.test("ownsTcpListener proves which process serves a loopback port", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  assert.equal(await ownsTcpListener(Deno.pid, port), true);
  assert.equal(await ownsTcpListener(1, port), Deno.uid() === 0 ? false : null);
});

Deno.test("processExecutable and processCommandLine read the driver's own process", async () => {
  assert.equal(await processExecutable(Deno.pid), Deno.execPath());
  const argv = await processCommandLine(Deno.pid);
  assert.ok(argv && argv.length > 1, JSON.stringify(argv));
  assert.equal(await processCommandLine(2 ** 22 + 1), null);
});

Deno.test("processCommandLine splits a Chromium process title back into argv", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(root, "7"));
    await Deno.writeTextFile(
      join(root, "7", "cmdline"),
      "/usr/lib/chromium/chromium --type=renderer --lang=en\0",
    );
    assert.deepEqual(await processCommandLine(7, root), [
      "/usr/lib/chromium/chromium",
      "--type=renderer",
      "--lang=en",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("monotonicMs counts milliseconds since boot", () => {
  const uptime = Number(Deno.readTextFileSync("/proc/uptime").split(" ")[0]) * 1000;
  assert.ok(Math.abs(monotonicMs() - uptime) < 5_000);
});
