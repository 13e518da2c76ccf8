/**
 * A grant to launch an app covers its arguments too (issue 24): a GTK module handed to an
 * allowed app never loads (its constructor would create a marker file), and a file outside
 * every read grant never opens (no process gets its path, its text reaches no reply), whether
 * the call comes from the agent or from a crafted recording through replay_trajectory, in
 * bounded and in standard mode. Judged by the marker file, by /proc (no process was started
 * with the argument) and by the replies.
 */
import assert from "node:assert/strict";
import { startAllTransports, type Transport } from "../_helpers/all_transports.ts";
import { e2eRequired, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { hasGrpcJs } from "../_helpers/grpc_node_client.ts";
import { type Attack, exists, expectAllRefused, withWitness } from "./_escape_kit.ts";

const ignore = ignoreWithoutDesktop() || (!hasGrpcJs() && !e2eRequired());

/** Builds a shared object whose constructor creates `marker`. */
async function buildModule(dir: string, marker: string): Promise<string> {
  const source = `${dir}/module.c`;
  await Deno.writeTextFile(
    source,
    `#include <fcntl.h>\n#include <unistd.h>\n` +
      `__attribute__((constructor)) static void ran(void) {\n` +
      `  int fd = open(${
        JSON.stringify(marker)
      }, O_CREAT | O_WRONLY, 0644);\n  if (fd >= 0) close(fd);\n}\n` +
      `void gtk_module_init(int *argc, char ***argv) { (void)argc; (void)argv; }\n`,
  );
  const library = `${dir}/libcua_probe.so`;
  const built = await new Deno.Command("gcc", { args: ["-shared", "-fPIC", "-o", library, source] }).output();
  assert.ok(built.success, new TextDecoder().decode(built.stderr));
  return library;
}

/** Pids of processes whose command line contains `needle` (read from /proc, not from the driver). */
async function processesWith(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.split("\0").some((arg) => arg.includes(needle))) pids.push(Number(entry.name));
  }
  return pids;
}

/** A recording whose turns are the attacks' launch_app calls. */
async function craftRecording(dir: string, attacks: readonly Attack[]): Promise<string> {
  const recording = `${dir}/recording-${crypto.randomUUID()}`;
  for (const [i, attack] of attacks.entries()) {
    const turn = `${recording}/turn-${String(i + 1).padStart(5, "0")}`;
    await Deno.mkdir(turn, { recursive: true });
    await Deno.writeTextFile(
      `${turn}/action.json`,
      JSON.stringify({ tool: "launch_app", arguments: attack.args, redacted: [], replay: {} }),
    );
  }
  return recording;
}

/** Replays the recording through each transport: every turn refused, nothing ran or opened. */
async function expectReplayRefused(
  transports: readonly Transport[],
  recording: string,
  turns: number,
  check: () => Promise<void>,
): Promise<void> {
  for (const transport of transports) {
    const result = await transport.call("replay_trajectory", {
      dir: recording,
      delay_ms: 0,
      stop_on_error: false,
    });
    const where = `${transport.name}: ${JSON.stringify(result.structured)}`;
    assert.equal(result.isError, false, where);
    assert.equal(result.structured.attempted, turns, where);
    assert.equal(result.structured.failed, turns, where);
    for (const turn of result.structured.turns as { ok: boolean; error_code?: string }[]) {
      assert.match(String(turn.error_code), /^(launch_refused|bounded_resource_outside_manifest)$/, where);
    }
    await check();
  }
}

Deno.test({
  name: "launch_app in bounded mode holds arguments to the grant: no GTK module loads, no outside file opens",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWitness(async (dir, marker, victim) => {
      const library = await buildModule(dir, marker);
      await Deno.mkdir(`${dir}/granted`);
      await Deno.mkdir(`${dir}/outside`);
      const secretText = `outside-the-grant-${crypto.randomUUID()}`;
      const secret = `${dir}/outside/secret.txt`;
      await Deno.writeTextFile(secret, secretText);
      const manifest = `${dir}/manifest.yaml`;
      await Deno.writeTextFile(
        manifest,
        `version: 3
expires_after: 1h
idle_timeout: 30m
allow:
  tools: [launch_app, list_windows, get_window_state, replay_trajectory]
resources:
  apps:
    - executable: galculator
      launch: true
    - executable: mousepad
      launch: true
  files:
    read: [{ dir: ${JSON.stringify(`${dir}/granted`)} }]
`,
      );
      const attacks: Attack[] = [
        {
          label: "GTK module",
          args: { launch_path: "galculator", additional_arguments: [`--gtk-module=${library}`] },
        },
        {
          label: "GTK module, separate value",
          args: { launch_path: "galculator", additional_arguments: ["--gtk-module", library] },
        },
        {
          label: "file outside the read grants",
          args: { launch_path: "mousepad", additional_arguments: [secret] },
        },
        {
          label: "the same file through a link inside the grant",
          args: { launch_path: "mousepad", additional_arguments: [`${dir}/granted/link.txt`] },
        },
        { label: "the same file as a URL", args: { launch_path: "mousepad", urls: [`file://${secret}`] } },
      ];
      await Deno.symlink(secret, `${dir}/granted/link.txt`);
      await using all = await startAllTransports([
        "--permission-mode",
        "bounded",
        "--capability-manifest",
        manifest,
        "--approve-capability-manifest",
      ]);
      const nothingOpened = async () => {
        assert.equal(await exists(marker), false, "the module's constructor ran");
        assert.deepEqual(await processesWith(secret), [], "a process got the outside file");
        assert.deepEqual(await processesWith(library), [], "a process got the module");
      };
      await expectAllRefused(all.transports, attacks, { marker, victim });
      await nothingOpened();
      // The recording lies inside the read grant: bounded mode may read it, not what it asks for.
      const recording = await craftRecording(`${dir}/granted`, attacks);
      await expectReplayRefused(all.transports, recording, attacks.length, nothingOpened);
      // A file inside the read grant does open (the grant works; the refusals above are the arguments').
      await Deno.writeTextFile(`${dir}/granted/notes.txt`, "granted");
      const opened = await all.transports[0].call("launch_app", {
        launch_path: "mousepad",
        additional_arguments: [`${dir}/granted/notes.txt`],
      });
      assert.equal(opened.isError, false, JSON.stringify(opened.structured));
      const pid = opened.structured.pid as number;
      try {
        assert.ok((await processesWith(`${dir}/granted/notes.txt`)).includes(pid));
      } finally {
        Deno.kill(pid, "SIGKILL");
      }
      for (const transport of all.transports) {
        const shown = JSON.stringify((await transport.call("list_windows", {})).structured);
        assert.doesNotMatch(shown, /secret\.txt/, `${transport.name}: a window shows the outside file`);
        assert.equal(shown.includes(secretText), false);
      }
    });
  },
});

Deno.test({
  name: "launch_app in standard mode refuses a GTK module for an app it launches, directly and replayed",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withWitness(async (dir, marker, victim) => {
      const library = await buildModule(dir, marker);
      await Deno.copyFile(library, `${dir}/module.txt`);
      const attacks: Attack[] = [
        {
          label: "GTK module",
          args: { launch_path: "galculator", additional_arguments: [`--gtk-module=${library}`] },
        },
        {
          label: "GTK module renamed",
          args: { launch_path: "galculator", additional_arguments: [`--gtk-module=${dir}/module.txt`] },
        },
        {
          label: "GTK_MODULES as an argument",
          args: { launch_path: "galculator", additional_arguments: [`GTK_MODULES=${library}`] },
        },
      ];
      await using all = await startAllTransports([]);
      const nothingRan = async () => {
        assert.equal(await exists(marker), false, "the module's constructor ran");
        assert.deepEqual(await processesWith(dir), [], "a process got the module");
      };
      await expectAllRefused(all.transports, attacks, { marker, victim });
      await nothingRan();
      await expectReplayRefused(
        all.transports,
        await craftRecording(dir, attacks),
        attacks.length,
        nothingRan,
      );
    });
  },
});
