/**
 * launch_app and kill_app on LibreOffice, whose `soffice` script execs the `oosplash`
 * launcher, which runs `soffice.bin` (the process that owns the windows). With a fresh user
 * profile the first `soffice.bin` exits to restart itself and oosplash starts another: the
 * pid launch_app reports must be the one that owns the window, read independently from the
 * X server (`_NET_WM_PID` by xprop) and /proc, and kill_app on it ends LibreOffice with its
 * launcher. Runs where LibreOffice is installed (scripts/setup.sh installs it).
 *
 * @module
 */
import assert from "node:assert/strict";
import { delimiter } from "node:path";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { startTestDriver } from "../_helpers/in_process_driver.ts";
import { waitFor, x } from "../_helpers/x11_probe.ts";
import { libreOfficeProfile } from "../crossapp/office_cells.ts";

function onPath(program: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(delimiter).some((dir) => {
    try {
      return Deno.statSync(`${dir}/${program}`).isFile;
    } catch {
      return false;
    }
  });
}

/** `comm` and parent pid of a process from /proc, or null when it is gone. */
async function stat(pid: number): Promise<{ comm: string; ppid: number } | null> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/stat`);
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    if (/^[ZX]/.test(fields[0])) return null;
    return { comm: text.slice(text.indexOf("(") + 1, close), ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

/** Ends what a failed run left of this test's LibreOffice (the processes naming its profile). */
async function killRunningOn(profileDir: string): Promise<void> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (!cmdline.includes(profileDir)) continue;
    try {
      Deno.kill(Number(entry.name), "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

Deno.test({
  name:
    "launch_app reports the soffice.bin that owns LibreOffice's window, and kill_app ends it with its launcher",
  ignore: ignoreWithoutDesktop() || !onPath("soffice"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-libreoffice-" });
    await using driver = await startTestDriver();
    let pid = 0;
    try {
      const profile = await libreOfficeProfile(dir);
      // A fresh profile: LibreOffice restarts once under oosplash before it maps a window.
      const launched = await driver.call("launch_app", {
        launch_path: "soffice",
        additional_arguments: [profile, "--writer", "--norestore", "--nologo"],
      }, 120_000);
      assert.equal(launched.isError, undefined, JSON.stringify(launched.structuredContent));
      const out = launched.structuredContent as {
        pid: number;
        windows: { window_id: number; title: string }[];
      };
      pid = out.pid;
      assert.ok(out.windows.length > 0, `launch_app saw the window: ${JSON.stringify(out)}`);
      const window = out.windows[0];
      assert.match(window.title, /LibreOffice/);

      // Independently: the X server says the window belongs to the reported pid ...
      const prop = await x("xprop", "-id", String(window.window_id), "_NET_WM_PID");
      assert.equal(Number(/= (\d+)/.exec(prop)?.[1]), pid, prop);
      // ... which is a live soffice.bin run by the oosplash launcher.
      const app = await stat(pid);
      assert.equal(app?.comm, "soffice.bin");
      const launcher = app?.ppid ?? 0;
      assert.equal((await stat(launcher))?.comm, "oosplash");

      const killed = await driver.call("kill_app", { pid });
      assert.equal(killed.isError, undefined, JSON.stringify(killed.structuredContent));
      await waitFor("soffice.bin to exit", async () => (await stat(pid)) === null ? true : null, 10_000);
      await waitFor("oosplash to exit", async () => (await stat(launcher)) === null ? true : null, 10_000);
      pid = 0;
    } finally {
      if (pid > 0) await driver.call("kill_app", { pid });
      await killRunningOn(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

/** Names of every window on the X server, from xwininfo (an independent reader). */
async function windowNames(): Promise<string[]> {
  const tree = await x("xwininfo", "-root", "-tree");
  return [...tree.matchAll(/^\s+0x[0-9a-f]+ "([^"]*)"/gm)].map((m) => m[1]);
}

Deno.test({
  name: "kill_app lets LibreOffice quit, so its next start shows no Document Recovery",
  ignore: ignoreWithoutDesktop() || !onPath("soffice"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-libreoffice-" });
    await using driver = await startTestDriver();
    const pids: number[] = [];
    try {
      const profile = await libreOfficeProfile(dir);
      const document = `${dir}/notes.txt`;
      await Deno.writeTextFile(document, "kept as it is\n");
      // No --norestore: a start after an unclean end offers Document Recovery.
      const launched = await driver.call("launch_app", {
        launch_path: "soffice",
        additional_arguments: [profile, "--writer", "--nologo", document],
      }, 120_000);
      assert.equal(launched.isError, undefined, JSON.stringify(launched.structuredContent));
      const pid = (launched.structuredContent as { pid: number }).pid;
      pids.push(pid);
      await waitFor("the document's window", async () => {
        return (await windowNames()).some((name) => name.includes("notes.txt")) ? true : null;
      }, 60_000);

      const killed = await driver.call("kill_app", { pid }, 30_000);
      assert.equal(killed.isError, undefined, JSON.stringify(killed.structuredContent));
      assert.equal((killed.structuredContent as { ended: string }).ended, "quit");
      await waitFor("soffice.bin to exit", async () => (await stat(pid)) === null ? true : null, 10_000);

      const again = await driver.call("launch_app", {
        launch_path: "soffice",
        additional_arguments: [profile, "--writer", "--nologo"],
      }, 120_000);
      assert.equal(again.isError, undefined, JSON.stringify(again.structuredContent));
      pids.push((again.structuredContent as { pid: number }).pid);
      // LibreOffice offers recovery before it opens the new document: wait for either.
      const names = await waitFor("Writer or Document Recovery", async () => {
        const names = await windowNames();
        return names.some((n) => /Document Recovery|Untitled 1 - LibreOffice Writer/.test(n)) ? names : null;
      }, 60_000);
      assert.ok(!names.some((n) => /Recovery/.test(n)), `windows: ${JSON.stringify(names)}`);
    } finally {
      for (const pid of pids) await driver.call("kill_app", { pid, force: true });
      await killRunningOn(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
