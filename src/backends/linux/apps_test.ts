import assert from "node:assert/strict";
import { DriverError } from "../../ports/errors.ts";
import { LinuxApps } from "./apps.ts";

function isCode(code: string) {
  return (error: unknown) => error instanceof DriverError && error.code === code;
}

/** A LinuxApps whose desktop entries come only from temp dirs. */
async function withApps(fn: (apps: LinuxApps, userApps: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/user/applications`, { recursive: true });
    const apps = new LinuxApps({ env: { XDG_DATA_HOME: `${root}/user`, XDG_DATA_DIRS: `${root}/system` } });
    await fn(apps, `${root}/user/applications`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function waitDead(apps: LinuxApps, pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!await apps.isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

Deno.test("LinuxApps launches /bin/sleep, kills it, and sees it gone", async () => {
  await withApps(async (apps) => {
    const result = await apps.launch({
      launchPath: "/bin/sleep",
      additionalArguments: ["30"],
      mode: "bounded",
    });
    const pid = result.pid ?? 0;
    try {
      assert.ok(pid > 0);
      assert.equal(result.name, "sleep");
      assert.equal(result.command, `${Deno.realPathSync("/bin/sleep")} 30`);
      assert.match(result.startTime ?? "", /^\d+$/);
      assert.equal(await apps.startTime(pid), result.startTime);
      assert.equal(await apps.isAlive(pid), true);
      assert.ok((await apps.listProcesses()).some((p) => p.pid === pid && p.name === "sleep"));
    } finally {
      await apps.kill(pid);
    }
    assert.ok(await waitDead(apps, pid));
    assert.equal(await apps.startTime(pid), null);
    await assert.rejects(apps.kill(pid), isCode("process_not_found"));
  });
});

Deno.test("LinuxApps.launch reports an unknown program as app_not_found", async () => {
  await withApps(async (apps) => {
    await assert.rejects(apps.launch({ name: "cua-no-such-program-xyz" }), (error: unknown) => {
      return isCode("app_not_found")(error) && /list_apps/.test(String((error as DriverError).data.hint));
    });
  });
});

Deno.test("LinuxApps.launch refuses remote debugging flags", async () => {
  await withApps(async (apps) => {
    await assert.rejects(
      apps.launch({ launchPath: "/bin/sleep", additionalArguments: ["30", "--remote-debugging-port=9222"] }),
      (error: unknown) =>
        isCode("launch_refused")(error) &&
        /browser_prepare/.test(String((error as DriverError).data.hint)),
    );
  });
});

Deno.test("LinuxApps.kill refuses init, the driver and bad pids", async () => {
  await withApps(async (apps) => {
    await assert.rejects(apps.kill(1), isCode("permission_denied"));
    await assert.rejects(apps.kill(0), isCode("permission_denied"));
    await assert.rejects(apps.kill(-3), isCode("permission_denied"));
    await assert.rejects(apps.kill(Deno.pid), isCode("permission_denied"));
    await assert.rejects(apps.kill(1.5), isCode("invalid_arguments"));
    await assert.rejects(apps.kill(2 ** 22 + 12345), isCode("process_not_found"));
  });
});

Deno.test("LinuxApps.listApps merges running processes with desktop entries", async () => {
  await withApps(async (apps, userApps) => {
    await Deno.writeTextFile(
      `${userApps}/cua-sleeper.desktop`,
      "[Desktop Entry]\nType=Application\nName=Sleeper\nExec=env LANG=C /bin/sleep %U\n",
    );
    await Deno.mkdir(`${userApps}/vendor`);
    await Deno.writeTextFile(
      `${userApps}/vendor/idle.desktop`,
      "[Desktop Entry]\nType=Application\nName=Idle Tool\nExec=cua-idle-tool-xyz --x\n",
    );
    const { pid } = await apps.launch({
      launchPath: "/bin/sleep",
      additionalArguments: ["30"],
      mode: "bounded",
    });
    try {
      const list = await apps.listApps();
      const running = list.find((a) => a.pid === pid);
      assert.deepEqual(running, {
        pid,
        bundleId: "cua-sleeper",
        name: "Sleeper",
        running: true,
        active: false,
        kind: "desktop",
        launchPath: "env LANG=C /bin/sleep",
        lastUsed: running?.lastUsed,
      });
      assert.ok(!Number.isNaN(Date.parse(running?.lastUsed ?? "")));
      const idle = list.find((a) => a.bundleId === "vendor-idle");
      assert.equal(idle?.pid, 0);
      assert.equal(idle?.running, false);
      assert.equal(idle?.launchPath, "cua-idle-tool-xyz --x");
      const self = list.find((a) => a.pid === Deno.pid);
      assert.equal(self?.kind, null);
      assert.equal(self?.bundleId, null);
      // Kernel threads (no cmdline) are left out; kthreadd is pid 2 on Linux.
      assert.equal(list.some((a) => a.pid === 2), false);
    } finally {
      await apps.kill(pid ?? 0);
    }
  });
});
