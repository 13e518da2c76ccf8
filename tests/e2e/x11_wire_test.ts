/**
 * The X11 wire client (src/lib/x11/wire.ts) against real X servers: it opens a
 * cookie-protected Xvfb with the cookie from XAUTHORITY (and not with a wrong one or none),
 * reads the screen size xdpyinfo reports, and lists the monitors `xrandr --listmonitors` lists
 * (virtual ones added with `xrandr --setmonitor`) and the pointer where xdotool put it; on the
 * test desktop its monitor list equals the Xlib path's (XRRGetMonitors).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ignoreWithoutDesktop } from "../_helpers/desktop_env.ts";
import { XConnection } from "../../src/backends/linux/x11/connection.ts";
import { X11Screen } from "../../src/backends/linux/screen.ts";
import { XWire } from "../../src/lib/x11/wire.ts";
import { wireDisplays, wirePointer } from "../../src/backends/linux/x11/wire_screen.ts";
import { x } from "../_helpers/x11_probe.ts";

const ignore = ignoreWithoutDesktop();

/** An Xvfb that needs the cookie in `xauthority` (written with xauth, as display managers do). */
async function startCookieXvfb(
  size: string,
): Promise<AsyncDisposable & { name: string; xauthority: string }> {
  const dir = await Deno.makeTempDir({ prefix: "cua-wire-" });
  const xauthority = join(dir, "Xauthority");
  const cookie = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  for (let n = 300 + Math.floor(Math.random() * 300);; n++) {
    if (await exists(`/tmp/.X11-unix/X${n}`) || await exists(`/tmp/.X${n}-lock`)) continue;
    await x("xauth", "-f", xauthority, "add", `:${n}`, ".", cookie);
    const child = new Deno.Command("Xvfb", {
      args: [`:${n}`, "-auth", xauthority, "-nolisten", "tcp", "-noreset", "-screen", "0", `${size}x24`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const name = `:${n}`;
    let exited = false;
    child.status.then(() => exited = true);
    while (!exited) {
      const probe = await new Deno.Command("xdpyinfo", {
        args: ["-display", name],
        env: { XAUTHORITY: xauthority },
        stdout: "null",
        stderr: "null",
      }).output();
      if (probe.success) {
        return {
          name,
          xauthority,
          async [Symbol.asyncDispose]() {
            child.kill("SIGTERM");
            await child.status;
            await Deno.remove(dir, { recursive: true });
          },
        };
      }
    }
    await child.status; // the display was taken meanwhile: the next number
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** `xrandr --listmonitors` of `name`: its monitors in the server's order. */
async function xrandrMonitors(name: string, xauthority: string) {
  const out = await new Deno.Command("xrandr", {
    args: ["--display", name, "--listmonitors"],
    env: { XAUTHORITY: xauthority },
    stdout: "piped",
  }).output();
  assert.ok(out.success, "xrandr --listmonitors");
  return new TextDecoder().decode(out.stdout).split("\n").slice(1).filter(Boolean).map((line) => {
    // " 0: *right 960/254x1080/286+960+0  output"
    const m = /^\s*(\d+): ([+*]*)(\S+) (\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/.exec(line)!;
    return {
      name: m[3],
      primary: m[2].includes("*"),
      bounds: { x: Number(m[6]), y: Number(m[7]), width: Number(m[4]), height: Number(m[5]) },
    };
  });
}

Deno.test({
  name:
    "XWire opens a cookie-protected display with its cookie, lists the monitors xrandr lists, reads the pointer",
  ignore,
  async fn() {
    await using server = await startCookieXvfb("1600x900");
    const env = (key: string) => key === "XAUTHORITY" ? server.xauthority : undefined;
    const xrandr = (...args: string[]) =>
      new Deno.Command("xrandr", {
        args: ["--display", server.name, ...args],
        env: { XAUTHORITY: server.xauthority },
      })
        .output();
    assert.ok((await xrandr("--setmonitor", "left", "800/211x900/238+0+0", "none")).success);
    assert.ok((await xrandr("--setmonitor", "*right", "800/211x900/238+800+0", "none")).success);

    const wire = await XWire.connect(server.name, env);
    assert.ok(wire, "connected with the cookie");
    try {
      const probe = await new Deno.Command("xdpyinfo", {
        args: ["-display", server.name],
        env: { XAUTHORITY: server.xauthority },
        stdout: "piped",
      }).output();
      const info = new TextDecoder().decode(probe.stdout);
      assert.match(info, new RegExp(`dimensions:\\s+${wire.screen.width}x${wire.screen.height} pixels`));
      assert.deepEqual([wire.screen.width, wire.screen.height], [1600, 900]);

      const expected = await xrandrMonitors(server.name, server.xauthority);
      assert.ok(expected.length >= 2, "two virtual monitors and the screen's own");
      const displays = await wireDisplays(wire);
      // Ids in the server's order, primary first, as the Xlib path lists them.
      const ordered = expected.map((m, i) => ({ id: String(i), ...m }))
        .sort((a, b) => Number(b.primary) - Number(a.primary));
      assert.deepEqual(
        displays.map(({ id, name, primary, bounds }) => ({ id, name, primary, bounds })),
        ordered,
      );
      assert.equal(displays[0].name, "right");

      const moved = await new Deno.Command("xdotool", {
        args: ["mousemove", "123", "456"],
        env: { DISPLAY: server.name, XAUTHORITY: server.xauthority },
      }).output();
      assert.ok(moved.success, "xdotool mousemove");
      assert.deepEqual(await wirePointer(wire), { x: 123, y: 456, source: "x11" });
    } finally {
      wire.close();
    }

    const wrong = join(await Deno.makeTempDir(), "Xauthority");
    await x("xauth", "-f", wrong, "add", server.name, ".", "00112233445566778899aabbccddeeff");
    assert.equal(await XWire.connect(server.name, (key) => key === "XAUTHORITY" ? wrong : undefined), null);
    assert.equal(await XWire.connect(server.name, () => undefined), null, "no cookie at all");
    await Deno.remove(wrong);
  },
});

Deno.test({
  name: "XWire's monitors on the test desktop equal the Xlib path's (XRRGetMonitors)",
  ignore,
  async fn() {
    const name = Deno.env.get("DISPLAY")!;
    const wire = await XWire.connect(name);
    assert.ok(wire, `the wire client opens ${name}`);
    using conn = XConnection.open(name);
    const xlib = new X11Screen(() => Promise.resolve(conn));
    try {
      assert.deepEqual(await wireDisplays(wire), await xlib.displays());
      assert.deepEqual(
        await new X11Screen(() => Promise.resolve(conn), undefined, wire).displays(),
        await xlib.displays(),
      );
      assert.equal(wire.screen.root, Number(conn.root));
    } finally {
      wire.close();
    }
    assert.equal(await XWire.connect("no-such-display-form/0"), null);
  },
});
