import assert from "node:assert/strict";
import { DriverError } from "../../../ports/errors.ts";
import type { LaunchProgram } from "../../../ports/apps.ts";
import { Launcher } from "./launch.ts";
import { type GuardContext, refuseForbiddenProgram } from "./launch_guard.ts";
import { isAlive } from "../os/proc_fs.ts";

function isCode(code: string) {
  return (error: unknown) => error instanceof DriverError && error.code === code;
}

function refusal(realPath: string, args: string[], context: Partial<GuardContext> = {}): string {
  try {
    refuseForbiddenProgram([realPath], args, {
      mode: "bounded",
      installed: false,
      callerArgs: args,
      ...context,
    });
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

  assert.equal(refusal("/usr/bin/python3.11", ["/opt/app/main.py"], { installed: true }), "allowed");
  assert.equal(refusal("/usr/bin/python3.11", ["/opt/app/main.py"]), "launch_refused");
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
      launcher().launch({
        launchPath: `${dir}/nap`,
        additionalArguments: ["30"],
        authorize: refuse,
        mode: "bounded",
      }),
      isCode("bounded_resource_outside_manifest"),
    );
    const real = Deno.realPathSync("/bin/sleep");
    assert.equal(seen[0].realPath, real);
    assert.deepEqual(seen[0].args, ["30"]);
    assert.equal(seen[0].ino, Deno.statSync(real).ino);

    // A list_apps launch_path (an Exec line) comes back as that entry's program and argv.
    const entries = [{ id: "nap", name: "Nap", argv: ["/bin/sleep", "31"] }];
    await assert.rejects(
      launcher(entries).launch({ launchPath: "/bin/sleep 31", authorize: refuse, mode: "bounded" }),
      isCode("bounded_resource_outside_manifest"),
    );
    assert.deepEqual(seen[1].args, ["31"]);
    assert.deepEqual(seen[1].callerArgs, [], "an installed entry's own arguments are not the caller's");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("refuseForbiddenProgram refuses the issue's wrappers in standard and bounded mode, judged by the real file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A wrapper behind a link named like an app is judged by the file it resolves to.
    await Deno.symlink("/usr/bin/time", `${dir}/galculator`);
    const cases: [string, string[]][] = [
      ["/usr/bin/time", ["kill", "-9", "1"]],
      ["/usr/bin/setpriv", ["kill", "-9", "1"]],
      ["/usr/bin/prlimit", ["/bin/sh", "-c", "true"]],
      ["/usr/bin/git", ["-c", "alias.x=!true", "x"]],
      ["/usr/bin/tar", ["--checkpoint-action=exec=true", "-cf", "/dev/null", "/etc/hostname"]],
      [Deno.realPathSync(`${dir}/galculator`), ["kill", "1"]],
      ["/usr/bin/xhost", ["+"]],
    ];
    for (const mode of ["standard", "bounded"] as const) {
      for (const [program, args] of cases) {
        assert.equal(refusal(program, args, { mode }), "launch_refused", `${mode}: ${program}`);
      }
    }
    // Unrestricted callers run what they name; kill and DevTools flags stay refused.
    assert.equal(refusal("/usr/bin/time", ["true"], { mode: "unrestricted" }), "allowed");
    assert.equal(refusal("/usr/bin/kill", ["-0", "1"], { mode: "unrestricted" }), "launch_refused");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("refuseForbiddenProgram lets standard mode run only GUI apps: installed, or linking a windowing toolkit", () => {
  const standard = { mode: "standard" as const };
  assert.equal(refusal(Deno.realPathSync("/usr/bin/gtk3-widget-factory"), [], standard), "allowed");
  assert.equal(refusal(Deno.realPathSync("/bin/sleep"), ["30"], standard), "launch_refused");
  assert.equal(
    refusal(Deno.realPathSync("/bin/sleep"), ["30"], { ...standard, installedProgram: true }),
    "allowed",
  );
  assert.equal(refusal(Deno.realPathSync("/bin/sleep"), ["30"], { mode: "bounded" }), "allowed");
});

Deno.test("refuseForbiddenProgram refuses code-loading arguments outside the unrestricted mode", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Native code under a name that does not say so is found by its content.
    await Deno.copyFile("/bin/true", `${dir}/notes.txt`);
    const gui = Deno.realPathSync("/usr/bin/gtk3-widget-factory");
    const loading = [
      [`--gtk-module=${dir}/x.so`],
      ["--gtk-module", "x"],
      ["-platformpluginpath", dir],
      ["--load", `${dir}/x`],
      ["--load-extension=/tmp/ext"],
      ["--renderer-cmd-prefix=sh -c true"],
      ["-qmljsdebugger=port:1234"],
      ["LD_PRELOAD=/tmp/x.so"],
      ["GTK_MODULES=x"],
      ["--theme-file=/tmp/evil.so.1"],
      [`--style=${dir}/notes.txt`],
      [`file://${dir}/notes.txt`],
      ["macro:///Standard.Module1.Main"],
      ["--accept=socket,host=0,port=2002;urp;"],
    ];
    for (const mode of ["standard", "bounded"] as const) {
      for (const args of loading) {
        assert.equal(refusal(gui, args, { mode }), "launch_refused", `${mode}: ${args}`);
      }
    }
    for (const args of loading) {
      assert.equal(refusal(gui, args, { mode: "unrestricted" }), "allowed", `${args}`);
    }
    // An installed entry's own arguments are not the caller's.
    assert.equal(refusal(gui, ["--gtk-module=x"], { mode: "standard", callerArgs: [] }), "allowed");
    for (
      const args of [["--title=a"], ["/tmp/notes.txt"], ["--geometry", "800x600"], [
        "https://example.org/x.so?y",
      ]]
    ) {
      assert.equal(refusal(gui, args, { mode: "standard" }), "allowed", `${args}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
