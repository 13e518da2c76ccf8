/**
 * The Windows system facility and platform reports under Wine: programs, PATH lookup,
 * TCP listener owners, the daemon's named pipe (which drops a peer without the secret),
 * and check_permissions / health_report with Windows facts.
 *
 * @module
 */
import assert from "node:assert/strict";
import net from "node:net";
import { pipeDacl } from "../../src/backends/windows/pipe_security.ts";
import { currentUserSid } from "../../src/backends/windows/security.ts";
import { NamedPipes } from "../../src/backends/windows/pipes.ts";
import { createWindowsSystem } from "../../src/backends/windows/system.ts";
import { startTestDriver, type Structured } from "../_helpers/in_process_driver.ts";
import { onWindows, waitFor } from "./_win_apps.ts";

Deno.test({
  name: "Windows system facility finds, runs and stops programs and tells TCP listener owners",
  ignore: !onWindows,
  async fn() {
    const system = createWindowsSystem();
    const notepad = await system.findExecutable("notepad");
    assert.match(notepad ?? "", /notepad\.exe$/i);
    assert.equal(await system.findExecutable("no-such-program-cua"), null);
    const echo = await system.run(["cmd.exe", "/c", "echo", "hello"]);
    assert.equal(echo.stdout.trim(), "hello");
    assert.equal((await system.run(["no-such-program-cua.exe"])).code, -1);
    const child = await system.spawn([notepad!], { endWithDriver: true });
    assert.ok(child.pid > 0);
    child.stop("kill");
    const status = await child.status;
    assert.equal(status.success, false);
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = (listener.addr as Deno.NetAddr).port;
      assert.equal(await system.ownsTcpListener(Deno.pid, port), true);
      assert.equal(await system.ownsTcpListener(child.pid, port), false);
    } finally {
      listener.close();
    }
    // Another process's argv, read through NtQueryInformationProcess and split like the C runtime does.
    const ping = await system.spawn(["ping.exe", "-n", "30", "127.0.0.1"]);
    try {
      const argv = await waitFor("ping's command line", () => system.processCommandLine(ping.pid));
      assert.deepEqual(argv.slice(1), ["-n", "30", "127.0.0.1"]);
      assert.match(argv[0], /ping(\.exe)?"?$/i);
    } finally {
      ping.stop("kill");
      await ping.status;
    }
    const mine = await Deno.makeTempFile();
    assert.equal(await system.ownedByUser(mine), true, "a file the driver created is its user's");
    await Deno.remove(mine);
    assert.equal(system.classifyDirectory("C:\\Windows\\System32"), "system");
    assert.equal(system.classifyDirectory("C:\\"), "shared_root");
    assert.match(system.cacheDir(), /cua-driver$/);
  },
});

Deno.test({
  name: "Windows named pipe: a client with the secret gets its bytes echoed, a peer without it is dropped",
  ignore: !onWindows,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const pipes = new NamedPipes();
    const address = `\\\\.\\pipe\\cua-test-${crypto.randomUUID()}`;
    const listener = await pipes.listen(address);
    try {
      assert.ok(pipes.exists(address));
      // The pipe's DACL: one entry, full access for the driver's own user (Windows reports it protected and
      // maps GA to FA; Wine keeps "D:(A;;GA;;;<sid>)"; a pipe node:net creates has an empty DACL there).
      const sid = currentUserSid();
      assert.match(sid ?? "", /^S-1-5-/);
      // (Our own probe connections take the listening instance for a moment: wait for the next one.)
      const dacl = await waitFor("a free pipe instance", () => pipeDacl(address));
      assert.match(dacl, new RegExp(`^D:P?\\(A;;(GA|FA);;;${sid}\\)$`));
      const serving = (async () => {
        const connection = await listener.accept();
        const buffer = new Uint8Array(64);
        const n = await connection.read(buffer);
        await connection.write(buffer.subarray(0, n ?? 0));
      })();
      // A peer that does not know the secret: its first line is wrong, so it is dropped unanswered.
      const intruder = net.connect(address);
      const dropped = new Promise<string>((resolve) => {
        let seen = "";
        intruder.on("data", (d) => seen += String(d));
        intruder.on("close", () => resolve(seen));
      });
      intruder.write("not the secret\nping\n");
      assert.equal(await dropped, "");
      const client = await pipes.connect(address);
      await client.write(new TextEncoder().encode("ping"));
      const reply = new Uint8Array(64);
      const n = await client.read(reply);
      assert.equal(new TextDecoder().decode(reply.subarray(0, n ?? 0)), "ping");
      await serving;
      client.close();
    } finally {
      listener.close();
    }
    assert.equal(pipes.exists(address), false);
  },
});

Deno.test({
  name: "check_permissions and health_report describe the Windows session (Wine here)",
  ignore: !onWindows,
  async fn() {
    await using driver = await startTestDriver();
    const permissions = await driver.ok("check_permissions", {});
    const checks = (permissions.checks ?? permissions.permissions ?? []) as Structured[];
    const desktop = checks.find((c) => c.name === "desktop");
    assert.ok(desktop, JSON.stringify(permissions).slice(0, 800));
    assert.match(desktop.detail, /Wine|Windows/);
    const health = await driver.ok("health_report", {});
    assert.match(JSON.stringify(health), /GDI BitBlt/);
  },
});

Deno.test({
  name: "Windows findExecutable falls back to the App Paths registry for programs off PATH",
  ignore: !onWindows,
  async fn() {
    const system = createWindowsSystem();
    // Wine registers iexplore.exe under App Paths (REG_SZ with an expanded folder); it is not on PATH.
    const iexplore = await system.findExecutable("iexplore");
    assert.match(iexplore ?? "", /iexplore\.exe$/i, "iexplore resolves through App Paths");
    assert.ok(Deno.statSync(iexplore!).isFile);
  },
});
