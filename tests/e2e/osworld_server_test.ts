/**
 * `cua-driver osworld-server` driven the way OSWorld's desktop environment drives its guest
 * (desktop_env/controllers/python.py: `requests` calls to port 5000, here with the bearer token
 * added), with the GTK3 fixture on the test desktop: /screenshot is a PNG of the screen,
 * /accessibility an XML whose buttons sit where the app put them, /execute runs OSWorld's
 * pyautogui prefix and commands (a click and typing land in the app's journal), /computer_13
 * maps the structured actions, the recording endpoints return an MP4 from the driver's recorder,
 * /setup/upload and /file work inside the files root and nowhere else (symlinks resolved), and
 * code outside the subset is refused with nothing run (no file written, nothing journalled).
 * Requests without the token are refused.
 *
 * @module
 */
import assert from "node:assert/strict";
import { desktopEnv, ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { driverArgs, driverEnv } from "../_helpers/driver.ts";
import { type JournalEntry, startFixture } from "../_helpers/fixture_app.ts";
import { waitFor, windowBox, x } from "../_helpers/x11_probe.ts";
import { decodePng } from "../../src/lib/image/png.ts";
import { freePort } from "../_helpers/free_port.ts";

const ignore = ignoreWithoutDesktop();
const TOKEN = "osworld-test-token-0123456789abcdef0123456789";
/** OSWorld's PythonController prefix. */
const PREFIX = "import pyautogui; import time; pyautogui.FAILSAFE = False; ";

Deno.test({
  name: "osworld-server answers OSWorld's client calls on the driver's capture, tree and input",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using app = await startFixture(desktopEnv(), { x: 90, y: 40 });
    const port = freePort();
    const filesRoot = await Deno.makeTempDir({ prefix: "cua-osworld-files-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: driverArgs("osworld-server", "--port", String(port), "--files-root", filesRoot),
      env: driverEnv({ CUA_DRIVER_DESKTOP: "system", CUA_DRIVER_OSWORLD_TOKEN: TOKEN }),
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const server = `http://127.0.0.1:${port}`;
    const auth = { authorization: `Bearer ${TOKEN}` };
    try {
      await waitFor("the server", async () => {
        try {
          const response = await fetch(`${server}/platform`, { headers: auth });
          return response.ok ? await response.text() : null;
        } catch {
          return null;
        }
      }, 30_000);
      const origin = await windowBox(app.xid);
      const centre = (name: string) => {
        const w = app.widgets[name];
        return { x: origin.x + w.x + Math.floor(w.width / 2), y: origin.y + w.y + Math.floor(w.height / 2) };
      };
      const latest = async () => (await app.readJournal()).at(-1) as JournalEntry;
      const execute = (command: string, shell = false) =>
        fetch(`${server}/execute`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ command: ["python", "-c", PREFIX + command], shell }),
        });

      await t.step("without the token nothing is answered", async () => {
        const response = await fetch(`${server}/screenshot`);
        assert.equal(response.status, 401);
        await response.body?.cancel();
      });

      await t.step("/platform, /screen_size and /screenshot", async () => {
        assert.equal(await (await fetch(`${server}/platform`, { headers: auth })).text(), "Linux");
        const root = await x("xwininfo", "-root");
        const size = await (await fetch(`${server}/screen_size`, { method: "POST", headers: auth })).json();
        assert.deepEqual(size, {
          width: Number(/Width:\s+(\d+)/.exec(root)![1]),
          height: Number(/Height:\s+(\d+)/.exec(root)![1]),
        });
        const response = await fetch(`${server}/screenshot`, { headers: auth });
        assert.equal(response.headers.get("content-type"), "image/png");
        const png = decodePng(new Uint8Array(await response.arrayBuffer()));
        assert.deepEqual([png.width, png.height], [size.width, size.height]);
      });

      await t.step("/accessibility: the fixture's buttons where the app put them", async () => {
        const { AT } = await (await fetch(`${server}/accessibility`, { headers: auth })).json();
        assert.match(
          AT,
          /^<desktop-frame xmlns:st="https:\/\/accessibility\.ubuntu\.example\.org\/ns\/state"/,
        );
        const button =
          /<push-button name="btn-increment"[^>]*cp:screencoord="\((\d+), (\d+)\)" cp:size="\((\d+), (\d+)\)"/
            .exec(AT);
        assert.ok(button, AT.slice(0, 600));
        const [bx, by, bw, bh] = button.slice(1).map(Number);
        const c = centre("btn-increment");
        assert.ok(c.x >= bx && c.x < bx + bw && c.y >= by && c.y < by + bh, `${c.x},${c.y} in ${button[0]}`);
      });

      await t.step("/execute: OSWorld's pyautogui commands land", async () => {
        const counter = (await latest()).counter as number;
        const c = centre("btn-increment");
        const response = await execute(`pyautogui.click(button='left', x=${c.x}, y=${c.y})`);
        assert.deepEqual(await response.json(), { status: "success", output: "", error: "", returncode: 0 });
        await waitFor("the click", async () => ((await latest()).counter === counter + 1 ? true : null));
        const entry = centre("txt-input");
        const typed = await execute(
          `pyautogui.click(${entry.x}, ${entry.y}); pyautogui.typewrite('os\\'world')`,
        );
        assert.equal(typed.status, 200, await typed.clone().text());
        await typed.body?.cancel();
        await waitFor("the typed text", async () => ((await latest()).mirror === "os'world" ? true : null));
        const hot = await fetch(`${server}/run_python`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ code: "pyautogui.hotkey('ctrl', 'a')" }),
        });
        assert.equal(hot.status, 200);
        await hot.body?.cancel();
        await waitFor("the hotkey", async () => ((await latest()).last_hotkey === "ctrl+a" ? true : null));
      });

      await t.step("/computer_13: structured actions", async () => {
        const clicks = (await latest()).clicks as number;
        const c = centre("btn-clicktarget");
        const response = await fetch(`${server}/computer_13`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify([
            { action_type: "CLICK", parameters: { x: c.x, y: c.y, button: "left", num_clicks: 2 } },
            { action_type: "WAIT", parameters: {} },
          ]),
        });
        assert.equal(response.status, 200, await response.clone().text());
        await response.body?.cancel();
        await waitFor("two clicks", async () => ((await latest()).clicks === clicks + 2 ? true : null));
        const bad = await fetch(`${server}/computer_13`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ action_type: "SELF_DESTRUCT", parameters: {} }),
        });
        assert.equal(bad.status, 400);
        await bad.body?.cancel();
      });

      await t.step(
        "/start_recording and /end_recording: an MP4 of the screen from the recorder",
        async () => {
          const started = await fetch(`${server}/start_recording`, { method: "POST", headers: auth });
          assert.equal(started.status, 200, await started.clone().text());
          await started.body?.cancel();
          const c = centre("btn-increment");
          const clicked = await execute(`pyautogui.click(${c.x}, ${c.y})`);
          await clicked.body?.cancel();
          const ended = await fetch(`${server}/end_recording`, { method: "POST", headers: auth });
          assert.equal(ended.status, 200, await ended.clone().text());
          assert.equal(ended.headers.get("content-type"), "video/mp4");
          const video = new Uint8Array(await ended.arrayBuffer());
          assert.equal(new TextDecoder().decode(video.slice(4, 8)), "ftyp");
          const again = await fetch(`${server}/end_recording`, { method: "POST", headers: auth });
          assert.equal(again.status, 400);
          await again.body?.cancel();
        },
      );

      await t.step("/setup/upload and /file inside the files root, nothing outside it", async () => {
        // As OSWorld's controller sends them: form fields file_path and file_data.
        const upload = new FormData();
        upload.set("file_path", `${filesRoot}/task/input.txt`);
        upload.set("file_data", new File([new TextEncoder().encode("osworld data")], "input.txt"));
        const uploaded = await fetch(`${server}/setup/upload`, {
          method: "POST",
          headers: auth,
          body: upload,
        });
        assert.equal(uploaded.status, 200, await uploaded.clone().text());
        await uploaded.body?.cancel();
        assert.equal(await Deno.readTextFile(`${filesRoot}/task/input.txt`), "osworld data");
        const read = (path: string) => {
          const form = new FormData();
          form.set("file_path", path);
          return fetch(`${server}/file`, { method: "POST", headers: auth, body: form });
        };
        const got = await read(`${filesRoot}/task/input.txt`);
        assert.equal(await got.text(), "osworld data");
        await Deno.symlink("/etc", `${filesRoot}/escape`);
        for (const path of ["/etc/hostname", `${filesRoot}/escape/hostname`, `${filesRoot}/../x`]) {
          const refused = await read(path);
          assert.equal(refused.status, 403, path);
          await refused.body?.cancel();
        }
        const outside = new FormData();
        outside.set("file_path", `${filesRoot}/escape/cua-osworld-written`);
        outside.set("file_data", new File([new Uint8Array([1])], "x"));
        const written = await fetch(`${server}/setup/upload`, {
          method: "POST",
          headers: auth,
          body: outside,
        });
        assert.equal(written.status, 403);
        await written.body?.cancel();
        await assert.rejects(Deno.stat("/etc/cua-osworld-written"));
      });

      await t.step("code outside the subset is refused and nothing of it runs", async () => {
        const marker = `/tmp/cua-osworld-refused-${crypto.randomUUID()}`;
        const before = (await app.readJournal()).length;
        const c = centre("btn-increment");
        for (
          const script of [
            `import os; os.system('touch ${marker}')`,
            `pyautogui.click(${c.x}, ${c.y}); open('${marker}', 'w').write('x')`,
            `pyautogui.click(${c.x}, ${c.y}); pyautogui.press('no-such-key')`,
          ]
        ) {
          const response = await execute(script);
          assert.equal(response.status, 400, script);
          const body = await response.json();
          assert.equal(body.status, "error");
          assert.match(body.message, /nothing was run/);
        }
        const shell = await execute(`pyautogui.click(${c.x}, ${c.y})`, true);
        assert.equal(shell.status, 400);
        await shell.body?.cancel();
        const other = await fetch(`${server}/execute`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ command: ["touch", marker], shell: false }),
        });
        assert.equal(other.status, 400);
        await other.body?.cancel();
        await assert.rejects(Deno.stat(marker));
        assert.equal((await app.readJournal()).length, before, "a refused script reached the app");
      });
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(filesRoot, { recursive: true }).catch(() => {});
      await child.stderr.cancel().catch(() => {});
    }
  },
});
