import assert from "node:assert/strict";
import { z } from "../../lib/schema/mod.ts";
import { ok } from "../../kernel/result.ts";
import { defineTool } from "../../kernel/tool.ts";
import { systemFor } from "../../backends/mod.ts";
import { createAuthorizer } from "./authorizer.ts";
import { createLaunchPolicy } from "./launch_policy.ts";
import { resolvePermissions } from "./config.ts";
import type { DriverError } from "../../ports/errors.ts";

const noEnv = () => undefined;

function tool(name: string, risk: "r0" | "r1" | "r2" | "r3" = "r1") {
  return defineTool({
    name,
    title: name,
    description: name,
    group: "system",
    input: z.object({}),
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    risk,
    capabilities: [],
    run: () => Promise.resolve(ok({}, "")),
  });
}

function writeManifest(text: string): string {
  const path = Deno.makeTempFileSync({ suffix: ".yaml" });
  Deno.writeTextFileSync(path, text);
  return path;
}

async function refusal(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (error) {
    return (error as DriverError).code ?? (error as Error).message;
  }
  return "allowed";
}

const system = await systemFor("linux");

/** Waits until a freshly spawned child has exec'd its program (until then /proc shows the parent's). */
async function execOf(pid: number, program: string): Promise<void> {
  while (!(await system.processExecutable(pid))?.endsWith(`/${program}`)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const session = {} as never;

Deno.test("resolvePermissions defaults to standard and needs acknowledgements for the risky modes", async () => {
  assert.equal((await resolvePermissions({ env: noEnv })).mode, "standard");
  await assert.rejects(
    () => resolvePermissions({ mode: "unrestricted", env: noEnv }),
    /dangerously-bypass-approvals/,
  );
  assert.equal(
    (await resolvePermissions({ mode: "yolo", dangerouslyBypass: true, env: noEnv })).mode,
    "unrestricted",
  );
  await assert.rejects(
    () =>
      resolvePermissions({
        mode: "unrestricted",
        dangerouslyBypass: true,
        env: (n) => n === "CUA_DRIVER_DISABLE_UNRESTRICTED" ? "1" : undefined,
      }),
    /disabled/,
  );
  await assert.rejects(
    () => resolvePermissions({ mode: "standard", dangerouslyBypass: true, env: noEnv }),
    /only goes with/,
  );
  await assert.rejects(
    () => resolvePermissions({ mode: "bounded", env: noEnv }),
    /needs a capability manifest/,
  );
  await assert.rejects(() => resolvePermissions({ mode: "sideways", env: noEnv }), /Unknown permission mode/);
  await assert.rejects(() => resolvePermissions({ grants: ["everything"], env: noEnv }), /Unknown grant/);
});

Deno.test("resolvePermissions requires the manifest approval and both timeouts in bounded mode", async () => {
  const path = writeManifest("version: 3\nallow:\n  tools: [get_screen_size]\n");
  await assert.rejects(
    () => resolvePermissions({ mode: "bounded", manifestPath: path, env: noEnv }),
    /approve-capability-manifest/,
  );
  await assert.rejects(
    () => resolvePermissions({ mode: "bounded", manifestPath: path, approveManifest: true, env: noEnv }),
    /expires_after and idle_timeout/,
  );
  const bad = writeManifest("version: 3\nallow:\n  tools: []\n");
  await assert.rejects(
    () => resolvePermissions({ mode: "bounded", manifestPath: bad, approveManifest: true, env: noEnv }),
    /invalid/,
  );
});

Deno.test("createAuthorizer in bounded mode denies tools, processes, files and the desktop outside the manifest", async () => {
  const path = writeManifest(`version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [get_screen_size, click, get_window_state, launch_app, kill_app]
resources:
  apps:
    - executable: sleep
      launch: true
  files:
    write: [{ dir: /tmp/allowed }]
`);
  const config = await resolvePermissions({
    mode: "bounded",
    manifestPath: path,
    approveManifest: true,
    env: noEnv,
  });
  const authorize = createAuthorizer(config, system);
  assert.equal(await refusal(() => authorize(tool("get_screen_size", "r0"), {}, session)), "allowed");
  assert.equal(await refusal(() => authorize(tool("list_windows", "r2"), {}, session)), "permission_denied");
  assert.equal(
    await refusal(() => authorize(tool("click"), { pid: 1 }, session)),
    "bounded_resource_outside_manifest",
  );
  assert.equal(
    await refusal(() => authorize(tool("click"), { target: { kind: "desktop" } }, session)),
    "bounded_resource_outside_manifest",
  );
  // Which program launch_app runs is judged on the resolved file (createLaunchPolicy below).
  assert.equal(
    await refusal(() => authorize(tool("launch_app"), { launch_path: "gedit" }, session)),
    "allowed",
  );
  assert.equal(
    await refusal(() =>
      authorize(tool("get_window_state", "r3"), { screenshot_out_file: "/etc/shot.png" }, session)
    ),
    "bounded_resource_outside_manifest",
  );
  assert.equal(
    await refusal(() =>
      authorize(tool("get_window_state", "r3"), { screenshot_out_file: "/tmp/allowed/a/shot.png" }, session)
    ),
    "allowed",
  );
  const sleeper = new Deno.Command("sleep", { args: ["5"] }).spawn();
  try {
    await execOf(sleeper.pid, "sleep");
    assert.equal(await refusal(() => authorize(tool("click"), { pid: sleeper.pid }, session)), "allowed");
    assert.equal(
      await refusal(() => authorize(tool("kill_app", "r3"), { pid: sleeper.pid }, session)),
      "bounded_resource_outside_manifest",
    );
  } finally {
    sleeper.kill();
  }
});

Deno.test("createAuthorizer never lets a tool target the driver itself, in any mode", async () => {
  const authorize = createAuthorizer(
    await resolvePermissions({ mode: "unrestricted", dangerouslyBypass: true, env: noEnv }),
    system,
  );
  assert.equal(
    await refusal(() => authorize(tool("kill_app", "r3"), { pid: Deno.pid }, session)),
    "permission_denied",
  );
  assert.equal(
    await refusal(() =>
      authorize(tool("click"), { target: { kind: "window", pid: Deno.pid, window_id: 5 } }, session)
    ),
    "permission_denied",
  );
  assert.equal(await refusal(() => authorize(tool("weird", "r9" as "r1"), {}, session)), "permission_denied");
});

function program(path: string, args: string[] = []) {
  const realPath = Deno.realPathSync(path);
  const info = Deno.statSync(realPath);
  return { realPath, dev: info.dev, ino: info.ino ?? 0, args };
}

Deno.test("createLaunchPolicy lets bounded mode launch only the manifest's real files", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    // A file named like the allowed program, and a link named like it, are not it.
    Deno.symlinkSync("/bin/sh", `${dir}/sleep`);
    Deno.copyFileSync(Deno.realPathSync("/bin/sh"), `${dir}/sleep-copy`);
    const path = writeManifest(`version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [launch_app]
resources:
  apps:
    - executable: sleep
      launch: true
    - executable: /bin/true
      launch: false
`);
    const config = await resolvePermissions({
      mode: "bounded",
      manifestPath: path,
      approveManifest: true,
      env: noEnv,
    });
    const check = createLaunchPolicy(config, (name) => system.resolveProgram!(name));
    assert.equal(await refusal(() => check(program("/bin/sleep", ["5"]))), "allowed");
    assert.equal(await refusal(() => check(program("/usr/bin/sleep"))), "allowed");
    for (const other of ["/bin/sh", `${dir}/sleep`, `${dir}/sleep-copy`, "/bin/true"]) {
      assert.equal(await refusal(() => check(program(other))), "bounded_resource_outside_manifest", other);
    }
    const standard = createLaunchPolicy(
      await resolvePermissions({ env: noEnv }),
      (name) => system.resolveProgram!(name),
    );
    assert.equal(
      await refusal(() => standard(program("/bin/sh"))),
      "allowed",
      "the launch guard, not this, refuses sh",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("createLaunchPolicy holds a bounded launch's arguments to the manifest's grants and argument lists", async () => {
  const root = Deno.makeTempDirSync();
  try {
    const granted = `${root}/granted`;
    Deno.mkdirSync(granted);
    Deno.mkdirSync(`${root}/out`);
    Deno.mkdirSync(`${root}/drafts`);
    Deno.writeTextFileSync(`${granted}/notes.txt`, "ok");
    Deno.writeTextFileSync(`${root}/out/secret.txt`, "secret");
    Deno.symlinkSync(`${root}/out/secret.txt`, `${granted}/link.txt`);
    const path = writeManifest(`version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [launch_app]
resources:
  apps:
    - executable: sleep
      launch: true
    - executable: /bin/true
      launch: true
      arguments: [[], ["--version"]]
  files:
    read: [{ dir: ${JSON.stringify(granted)} }]
    write: [{ dir: ${JSON.stringify(`${root}/drafts`)} }]
`);
    const config = await resolvePermissions({
      mode: "bounded",
      manifestPath: path,
      approveManifest: true,
      env: noEnv,
    });
    const check = createLaunchPolicy(config, (name) => system.resolveProgram!(name));
    const sleep = (args: string[]) => refusal(() => check(program("/bin/sleep", args)));
    for (
      const args of [
        ["5"],
        [`${granted}/notes.txt`],
        [`file://${granted}/notes.txt`],
        [`--file=${granted}/notes.txt`],
        [`${root}/drafts/new.txt`],
        ["https://example.org/"],
      ]
    ) {
      assert.equal(await sleep(args), "allowed", `${args}`);
    }
    for (
      const args of [
        [`${root}/out/secret.txt`],
        [`file://${root}/out/secret.txt`],
        [`--open=${root}/out/secret.txt`],
        [`${granted}/link.txt`],
        [`${granted}/../out/secret.txt`],
        [`${root}/out/new.txt`],
        ["/proc/self/environ"],
        [`view-source:file://${root}/out/secret.txt`],
        [`admin://${root}/out/secret.txt`],
      ]
    ) {
      assert.equal(await sleep(args), "bounded_resource_outside_manifest", `${args}`);
    }
    // The exact argument lists of an app that has them.
    const tru = (args: string[]) => refusal(() => check(program("/bin/true", args)));
    assert.equal(await tru([]), "allowed");
    assert.equal(await tru(["--version"]), "allowed");
    assert.equal(await tru(["--help"]), "bounded_resource_outside_manifest");
    assert.equal(await tru(["--version", "x"]), "bounded_resource_outside_manifest");
    // Only the caller's arguments count (an installed app's own Exec arguments are the system's).
    assert.equal(
      await refusal(() =>
        check({ ...program("/bin/true", ["--own", "--version"]), callerArgs: ["--version"] })
      ),
      "allowed",
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("createAuthorizer judges file grants by where a path really leads", async () => {
  const root = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${root}/allowed`);
    Deno.mkdirSync(`${root}/outside`);
    Deno.writeTextFileSync(`${root}/outside/secret`, "x");
    Deno.symlinkSync(`${root}/outside/secret`, `${root}/allowed/link.png`);
    Deno.symlinkSync(`${root}/outside`, `${root}/allowed/dirlink`);
    Deno.symlinkSync(`${root}/allowed`, `${root}/grant-link`);
    const path = writeManifest(`version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [get_window_state, clipboard_write]
resources:
  files:
    write: [{ dir: ${root}/grant-link }]
    read: [{ dir: ${root}/allowed, recursive: false }]
`);
    const authorize = createAuthorizer(
      await resolvePermissions({ mode: "bounded", manifestPath: path, approveManifest: true, env: noEnv }),
      system,
    );
    const write = (file: string) =>
      refusal(() => authorize(tool("get_window_state", "r3"), { screenshot_out_file: file }, session));
    assert.equal(await write(`${root}/allowed/new.png`), "allowed");
    assert.equal(await write(`${root}/allowed/sub/new.png`), "allowed");
    assert.equal(await write(`${root}/allowed/link.png`), "bounded_resource_outside_manifest");
    assert.equal(await write(`${root}/allowed/dirlink/new.png`), "bounded_resource_outside_manifest");
    assert.equal(await write(`${root}/allowed/../outside/new.png`), "bounded_resource_outside_manifest");
    assert.equal(await write("/proc/self/fd/1"), "bounded_resource_outside_manifest");
    const read = (file: string) =>
      refusal(() => authorize(tool("clipboard_write"), { image_path: file }, session));
    assert.equal(await read(`${root}/allowed/a.png`), "allowed");
    assert.equal(await read(`${root}/allowed/link.png`), "bounded_resource_outside_manifest");
    assert.equal(
      await read(`${root}/allowed/sub/a.png`),
      "bounded_resource_outside_manifest",
      "not recursive",
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
