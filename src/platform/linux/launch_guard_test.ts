import assert from "node:assert/strict";
import { DriverError } from "../../core/errors.ts";
import type { LaunchProgram } from "../types.ts";
import { Launcher } from "./launch.ts";
import { refuseForbiddenProgram } from "./launch_guard.ts";
import { isAlive } from "./proc_fs.ts";

function isCode(code: string) {
  return (error: unknown) => error instanceof DriverError && error.code === code;
}

function refusal(realPath: string, args: string[]): string {
  try {
    refuseForbiddenProgram([realPath], args);
    return "allowed";
  } catch (error) {
    return (error as DriverError).code;
  }
}

Deno.test("refuseForbiddenProgram refuses killers, command runners and inline code, not plain apps", () => {
  for (const program of ["/usr/bin/kill", "/usr/bin/pkill", "/usr/bin/killall", "/usr/bin/xkill"]) {
    assert.equal(refusal(program, ["-9", "1234"]), "launch_refused", program);
  }
  for (
    const program of ["/usr/bin/dash", "/usr/bin/bash", "/usr/bin/env", "/usr/bin/xargs", "/usr/bin/sudo"]
  ) {
    assert.equal(refusal(program, []), "launch_refused", program);
  }
  assert.equal(refusal("/usr/bin/python3.11", ["-c", "import os"]), "launch_refused");
  assert.equal(refusal("/usr/bin/python3.11", ["-Ic", "import os"]), "launch_refused");
  assert.equal(refusal("/usr/bin/python3.11", ["-m", "timeit"]), "launch_refused");
  assert.equal(refusal("/usr/bin/python3.11", ["/opt/app/main.py", "-c", "x"]), "launch_refused");
  assert.equal(refusal("/usr/bin/perl", ["-e", "kill 9, 1"]), "launch_refused");
  assert.throws(
    () => refuseForbiddenProgram(["/usr/bin/pgrep", "/usr/bin/pkill"], ["x"]),
    isCode("launch_refused"),
  );
  assert.equal(refusal("/usr/bin/xterm", ["-e", "kill 1"]), "launch_refused");
  assert.equal(refusal("/usr/bin/gnome-terminal.real", ["--", "kill", "1"]), "launch_refused");
  assert.equal(refusal("/usr/bin/vim.basic", ["-c", "!kill 1"]), "launch_refused");
  assert.equal(refusal("/usr/bin/vim.basic", ["+!kill 1"]), "launch_refused");
  assert.equal(refusal("/usr/lib/chromium/chromium", [" --remote-debugging-port=9222"]), "launch_refused");

  assert.equal(refusal("/usr/bin/python3.11", ["/opt/app/main.py"]), "allowed");
  assert.equal(refusal("/usr/bin/gtk3-widget-factory", []), "allowed");
  assert.equal(refusal("/usr/bin/xterm", ["-title", "work"]), "allowed");
  assert.equal(refusal("/usr/bin/mousepad", ["/tmp/notes.txt"]), "allowed");
});

/** A launcher whose desktop entries are only `entries`. */
function launcher(entries: { id: string; name: string; argv: string[] }[] = []) {
  return new Launcher({
    env: {},
    entries: () =>
      Promise.resolve(entries.map((e) => ({
        ...e,
        path: `/x/${e.id}.desktop`,
        launchPath: e.argv.join(" "),
        key: e.argv[0] ?? null,
        mtime: null,
      }))),
  });
}

Deno.test("Launcher never splits a launch path into a command line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const marker = `${dir}/ran`;
    // The attack from issue 11: a shell command line that ends in an allowed program's name.
    for (const launchPath of [`/bin/sh -c "touch ${marker}" /usr/bin/sleep`, `sleep 30; touch ${marker}`]) {
      await assert.rejects(launcher().launch({ launchPath }), isCode("app_not_found"), launchPath);
    }
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "no shell ran");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Launcher refuses shells, kill and wrappers however they are named", async () => {
  const dir = await Deno.makeTempDir();
  const sleeper = new Deno.Command("/bin/sleep", { args: ["30"] }).spawn();
  try {
    await Deno.symlink("/bin/sh", `${dir}/innocent`);
    await Deno.symlink("/bin/kill", `${dir}/sleep`);
    const attempts = [
      { launchPath: "/bin/sh", additionalArguments: ["-c", `kill -9 ${sleeper.pid}`] },
      { launchPath: "sh", additionalArguments: ["-c", `kill -9 ${sleeper.pid}`] },
      { launchPath: "kill", additionalArguments: ["-9", String(sleeper.pid)] },
      { launchPath: " /bin/kill ", additionalArguments: ["-9", String(sleeper.pid)] },
      { launchPath: `${dir}/innocent`, additionalArguments: ["-c", `kill -9 ${sleeper.pid}`] },
      { launchPath: `${dir}/sleep`, additionalArguments: ["-9", String(sleeper.pid)] },
      { launchPath: "env", additionalArguments: ["kill", "-9", String(sleeper.pid)] },
      { launchPath: "python3", additionalArguments: ["-c", `import os; os.kill(${sleeper.pid}, 9)`] },
      { name: "kill", additionalArguments: ["-9", String(sleeper.pid)] },
    ];
    for (const request of attempts) {
      await assert.rejects(launcher().launch(request), isCode("launch_refused"), JSON.stringify(request));
    }
    // A desktop entry (or a .desktop file the caller names) gets the same guard.
    const shellEntry = { id: "evil", name: "Evil", argv: ["sh", "-c", `kill -9 ${sleeper.pid}`] };
    await assert.rejects(launcher([shellEntry]).launch({ name: "Evil" }), isCode("launch_refused"));
    await Deno.writeTextFile(
      `${dir}/evil.desktop`,
      `[Desktop Entry]\nType=Application\nName=Evil\nExec=/bin/sh -c "kill -9 ${sleeper.pid}"\n`,
    );
    await assert.rejects(launcher().launch({ launchPath: `${dir}/evil.desktop` }), isCode("launch_refused"));
    await Deno.writeTextFile(
      `${dir}/preload.desktop`,
      `[Desktop Entry]\nType=Application\nName=Preload\nExec=env LD_PRELOAD=${dir}/x.so /bin/sleep 30\n`,
    );
    await assert.rejects(
      launcher().launch({ launchPath: `${dir}/preload.desktop` }),
      isCode("launch_refused"),
    );
    assert.equal(await isAlive(sleeper.pid), true, "the foreign process still runs");
  } finally {
    sleeper.kill("SIGKILL");
    await sleeper.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Launcher hands authorize the real file and argv it is about to run, and runs nothing on refusal", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.symlink("/bin/sleep", `${dir}/nap`);
    const seen: LaunchProgram[] = [];
    const refuse = (program: LaunchProgram) => {
      seen.push(program);
      throw new DriverError("bounded_resource_outside_manifest", "no");
    };
    await assert.rejects(
      launcher().launch({ launchPath: `${dir}/nap`, additionalArguments: ["30"], authorize: refuse }),
      isCode("bounded_resource_outside_manifest"),
    );
    const real = Deno.realPathSync("/bin/sleep");
    assert.equal(seen[0].realPath, real);
    assert.deepEqual(seen[0].args, ["30"]);
    assert.equal(seen[0].ino, Deno.statSync(real).ino);

    // A list_apps launch_path (an Exec line) comes back as that entry's program and argv.
    const entries = [{ id: "nap", name: "Nap", argv: ["/bin/sleep", "31"] }];
    await assert.rejects(
      launcher(entries).launch({ launchPath: "/bin/sleep 31", authorize: refuse }),
      isCode("bounded_resource_outside_manifest"),
    );
    assert.deepEqual(seen[1].args, ["31"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
