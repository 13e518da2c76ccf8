import assert from "node:assert/strict";
import { DriverError } from "../../../ports/errors.ts";
import type { DesktopEntry } from "./desktop_entries.ts";
import { Launcher, refuseRemoteDebugging, resolveDesktopEntry } from "./launch.ts";
import { isAlive, readCmdline, startTime } from "../os/proc_fs.ts";

function entry(id: string, name: string, argv: string[]): DesktopEntry {
  return {
    id,
    path: `/x/${id}.desktop`,
    name,
    argv,
    launchPath: argv.join(" "),
    key: argv[0] ?? null,
    mtime: null,
  };
}

/** /bin/sleep's real file (/usr/bin/sleep on a merged-/usr system): what the launcher runs. */
const SLEEP = Deno.realPathSync("/bin/sleep");

const ENTRIES = [
  entry("org.gnome.TextEditor", "Text Editor", ["gnome-text-editor"]),
  entry("firefox", "Firefox Web Browser", ["firefox"]),
  entry("chromium", "Chromium Web Browser", ["chromium"]),
];

function isCode(code: string) {
  return (error: unknown) => error instanceof DriverError && error.code === code;
}

Deno.test("resolveDesktopEntry matches name, id, Exec basename, then a unique substring", () => {
  assert.equal(resolveDesktopEntry(ENTRIES, "text editor")?.id, "org.gnome.TextEditor");
  assert.equal(resolveDesktopEntry(ENTRIES, "org.gnome.TextEditor")?.id, "org.gnome.TextEditor");
  assert.equal(resolveDesktopEntry(ENTRIES, "gnome-text-editor")?.id, "org.gnome.TextEditor");
  assert.equal(resolveDesktopEntry(ENTRIES, "Firefox")?.id, "firefox");
  assert.equal(resolveDesktopEntry(ENTRIES, "nothing"), null);
  assert.throws(() => resolveDesktopEntry(ENTRIES, "web browser"), isCode("app_not_found"));
});

Deno.test("refuseRemoteDebugging rejects DevTools flags, whatever whitespace or case hides them", () => {
  refuseRemoteDebugging(["chromium", "--incognito", "https://example.org/remote-debugging"]);
  for (
    const flag of [
      "--remote-debugging-port=9222",
      "-remote-debugging-pipe",
      " --remote-debugging-port=1",
      "\t--REMOTE-DEBUGGING-ADDRESS=0.0.0.0",
      "--start-debugger-server",
      "-marionette",
      "--remote-allow-origins=*",
    ]
  ) {
    assert.throws(() => refuseRemoteDebugging([flag]), isCode("launch_refused"), flag);
  }
});

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function killAndReap(launcher: Launcher, pid: number | null): Promise<void> {
  if (pid === null) return;
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
  assert.ok(await launcher.reaped(pid, 2000));
}

Deno.test("Launcher resolves a name through desktop entries when exec fails", async () => {
  const launcher = new Launcher({
    env: {},
    entries: () => Promise.resolve([entry("sleepy", "Sleepy App", ["/bin/sleep", "30"])]),
  });
  const result = await launcher.launch({ name: "Sleepy App" });
  try {
    assert.equal(result.name, "Sleepy App");
    assert.equal(result.command, `${SLEEP} 30`);
    assert.equal(result.startTime, await startTime(result.pid ?? 0));
    assert.deepEqual(await readCmdline(result.pid ?? 0), [SLEEP, "30"]);
  } finally {
    await killAndReap(launcher, result.pid);
  }
  assert.equal(await isAlive(result.pid ?? 0), false);
});

Deno.test("Launcher adds the renderer accessibility flag and accessibility env", async () => {
  await withTempDir(async (dir) => {
    const program = `${dir}/fake-chromium`;
    await Deno.writeTextFile(program, "#!/bin/sh\nexec sleep 30\n");
    await Deno.chmod(program, 0o755);
    const launcher = new Launcher({ env: { CUA_TEST_MARKER: "yes" }, entries: () => Promise.resolve([]) });
    const result = await launcher.launch({
      launchPath: program,
      additionalArguments: ["--incognito"],
      urls: ["about:blank"],
      // A script that only sleeps is not a GUI app: only the unrestricted mode runs it.
      mode: "unrestricted",
    });
    try {
      assert.equal(result.command, `${program} --force-renderer-accessibility --incognito about:blank`);
      // Until the child has exec'd, /proc shows the environment it inherited by fork.
      let environ: string[] = [];
      for (let i = 0; i < 200 && !environ.includes("CUA_TEST_MARKER=yes"); i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        environ = (await Deno.readTextFile(`/proc/${result.pid}/environ`)).split("\0");
      }
      assert.ok(environ.includes("ACCESSIBILITY_ENABLED=1"));
      assert.ok(environ.includes("NO_AT_BRIDGE=0"));
      assert.ok(environ.includes("CUA_TEST_MARKER=yes"));
      // detached: the child leads its own session (field 6 of stat is the session id).
      const stat = await Deno.readTextFile(`/proc/${result.pid}/stat`);
      assert.equal(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3], String(result.pid));
    } finally {
      await killAndReap(launcher, result.pid);
    }
  });
});

Deno.test("Launcher sends URLs to xdg-open and reports its fast failures", async () => {
  await withTempDir(async (dir) => {
    const xdg = `${dir}/xdg-open`;
    await Deno.writeTextFile(xdg, `#!/bin/sh\ncase "$1" in *missing*) exit 2;; esac\nexit 0\n`);
    await Deno.chmod(xdg, 0o755);
    const launcher = new Launcher({
      env: { PATH: `${dir}:/usr/bin:/bin` },
      entries: () => Promise.resolve([]),
    });
    const ok = await launcher.launch({ urls: ["https://example.org/"] });
    assert.deepEqual(ok, {
      pid: null,
      name: "https://example.org/",
      startTime: null,
      command: "xdg-open https://example.org/",
    });
    await assert.rejects(launcher.launch({ urls: ["file:///missing"] }), (error: unknown) => {
      return isCode("launch_failed")(error) && /file does not exist/.test((error as Error).message);
    });
    const none = new Launcher({ env: { PATH: `${dir}/empty` }, entries: () => Promise.resolve([]) });
    await assert.rejects(none.launch({ urls: ["https://example.org/"] }), isCode("launch_failed"));
  });
});

Deno.test("Launcher refuses bad requests before spawning", async () => {
  const launcher = new Launcher({ env: {}, entries: () => Promise.resolve([]) });
  await assert.rejects(launcher.launch({}), isCode("invalid_arguments"));
  await assert.rejects(
    launcher.launch({ launchPath: "/bin/sleep", additionalArguments: ["--remote-debugging-port=9222"] }),
    isCode("launch_refused"),
  );
  await assert.rejects(launcher.launch({ urls: ["--remote-debugging-port=1"] }), isCode("invalid_arguments"));
  await assert.rejects(
    launcher.launch({ launchPath: "/etc/hostname-not-a-program-xyz" }),
    isCode("app_not_found"),
  );
});

Deno.test("Launcher's children outlive the process that launched them", async () => {
  await withTempDir(async (dir) => {
    const script = `${dir}/launch_once.ts`;
    const module = new URL("./launch.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { Launcher } from ${JSON.stringify(module)};\n` +
        `const launcher = new Launcher({ env: {}, entries: () => Promise.resolve([]) });\n` +
        `const result = await launcher.launch({ launchPath: "/bin/sleep", additionalArguments: ["30"], mode: "bounded" });\n` +
        `console.log(result.pid);\n`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--cached-only", "--no-config", script],
      cwd: dir,
      stdin: "null",
      stderr: "inherit",
    }).output();
    assert.ok(output.success);
    const pid = Number(new TextDecoder().decode(output.stdout).trim());
    assert.ok(pid > 0);
    try {
      assert.equal(await isAlive(pid), true);
    } finally {
      Deno.kill(pid, "SIGKILL");
    }
  });
});

Deno.test("Launcher says a missing absolute path does not exist instead of asking for a full path", async () => {
  const launcher = new Launcher({ env: { PATH: "/usr/bin:/bin" }, entries: () => Promise.resolve([]) });
  await assert.rejects(launcher.launch({ launchPath: "/nonexistent/bin/app" }), (error: unknown) => {
    const { message, data } = error as { message: string; data: { hint: string } };
    assert.equal(message, 'Cannot launch "/nonexistent/bin/app": no such file');
    assert.doesNotMatch(data.hint, /full path|absolute path/);
    return isCode("app_not_found")(error);
  });
});
