import assert from "node:assert/strict";
import { LinuxApps } from "../apps.ts";
import * as proc from "../os/proc_fs.ts";

/**
 * A stand-in for LibreOffice's launcher: a script named `oosplash` (its stat comm) that runs
 * `soffice.bin` until it exits with 81 (a restart), then runs it again, like oosplash on a
 * fresh profile. Each `soffice.bin` runs until its `stop-<n>` file appears.
 */
async function fakeLauncher(dir: string): Promise<string> {
  await Deno.writeTextFile(
    `${dir}/soffice.bin`,
    `#!/bin/sh\nwhile [ ! -e "${dir}/stop-$1" ]; do sleep 0.02; done\n[ "$1" = 1 ] && exit 81\nexit 0\n`,
  );
  await Deno.writeTextFile(
    `${dir}/oosplash`,
    `#!/bin/sh\nn=1\nwhile :; do "${dir}/soffice.bin" $n; [ $? = 81 ] || exit 0; n=$((n + 1)); done\n`,
  );
  await Deno.chmod(`${dir}/soffice.bin`, 0o755);
  await Deno.chmod(`${dir}/oosplash`, 0o755);
  return `${dir}/oosplash`;
}

/** Waits for a condition the processes reach on their own (the test never sleeps a fixed time). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    assert.ok(Date.now() < deadline, `${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("LinuxApps follows a launcher's app across its restart and kill ends both", async () => {
  const dir = await Deno.makeTempDir();
  const apps = new LinuxApps({ env: { XDG_DATA_HOME: `${dir}/none`, XDG_DATA_DIRS: `${dir}/none` } });
  let launcher = 0;
  try {
    const launched = await apps.launch({ launchPath: await fakeLauncher(dir), mode: "bounded" });
    launcher = launched.launcher ?? 0;
    assert.ok(launcher > 0, `the launch names its launcher: ${JSON.stringify(launched)}`);
    const first = launched.pid ?? 0;
    assert.notEqual(first, launcher);
    // Read independently: the reported pid is the launcher's soffice.bin child.
    assert.equal((await proc.readStat(first))?.comm, "soffice.bin");
    assert.equal((await proc.readStat(first))?.ppid, launcher);
    assert.equal(await apps.appBehind(launcher), first);

    await Deno.writeTextFile(`${dir}/stop-1`, "");
    const second = await until(
      () => apps.appBehind(launcher),
      (pid) => pid !== null && pid !== first,
      "restart",
    );
    assert.ok(second !== null);
    assert.equal(await apps.isAlive(first), false, "the first soffice.bin exited to restart");
    assert.equal((await proc.readStat(second))?.comm, "soffice.bin");
    assert.equal((await proc.readStat(second))?.ppid, launcher);

    await apps.kill(second);
    await until(() => apps.isAlive(second), (alive) => !alive, "the app after kill");
    await until(() => apps.isAlive(launcher), (alive) => !alive, "its launcher after the app was killed");
    // An app of the same name that is not the launch's (this launch had no DISPLAY to hand off on).
    const stranger = new Deno.Command(`${dir}/soffice.bin`, { args: ["stranger"] }).spawn();
    try {
      await until(() => proc.readStat(stranger.pid), (stat) => stat?.comm === "soffice.bin", "the stranger");
      assert.equal(await apps.appBehind(launcher), null);
    } finally {
      await Deno.writeTextFile(`${dir}/stop-stranger`, "");
      await stranger.status;
    }
  } finally {
    if (launcher > 0 && await apps.isAlive(launcher)) await apps.kill(launcher);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LinuxApps.kill of a launcher also ends the app it runs", async () => {
  const dir = await Deno.makeTempDir();
  const apps = new LinuxApps({ env: { XDG_DATA_HOME: `${dir}/none`, XDG_DATA_DIRS: `${dir}/none` } });
  try {
    const launched = await apps.launch({ launchPath: await fakeLauncher(dir), mode: "bounded" });
    const launcher = launched.launcher ?? 0;
    const app = launched.pid ?? 0;
    assert.ok(launcher > 0 && app > 0 && app !== launcher, JSON.stringify(launched));
    await apps.kill(launcher);
    await until(() => apps.isAlive(app), (alive) => !alive, "the app after its launcher was killed");
    assert.equal(await apps.isAlive(launcher), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LinuxApps reports a program that is no launcher as the app, with no launcher", async () => {
  const apps = new LinuxApps({ env: {} });
  const launched = await apps.launch({
    launchPath: "/bin/sleep",
    additionalArguments: ["30"],
    mode: "bounded",
  });
  try {
    assert.equal(launched.launcher, null);
    assert.equal(await apps.appBehind(launched.pid ?? 0), null);
  } finally {
    await apps.kill(launched.pid ?? 0);
  }
});
