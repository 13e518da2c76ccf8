/**
 * A headless sway session of its own for a test: a private XDG_RUNTIME_DIR, a session bus, an
 * AT-SPI bus, and sway (wlroots' headless backend and pixman renderer, one 1920x1080 output, no
 * XWayland unless asked) inside a user namespace, since sway refuses to run as root. {@linkcode SwaySession.env}
 * is what a client of the session (the driver, an app, an independent reader) needs, with no
 * DISPLAY. {@linkcode swayUnavailable} says why sway cannot start here, for `ignore`.
 *
 * @module
 */

/** Why sway cannot start on this machine, or null when it can. */
export function swayUnavailable(): string | null {
  for (const program of ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/grim", "/usr/bin/unshare"]) {
    try {
      Deno.statSync(program);
    } catch {
      return `${program} is not installed (scripts/setup.sh installs sway and grim)`;
    }
  }
  return null;
}

const config = (xwayland: boolean) =>
  `output HEADLESS-1 resolution 1920x1080 position 0 0
default_border none
default_floating_border none
xwayland ${xwayland ? "enable" : "disable"}
focus_on_window_activation focus
`;

const ACCESSIBILITY = {
  NO_AT_BRIDGE: "0",
  ACCESSIBILITY_ENABLED: "1",
  QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
};

/** Options of {@linkcode SwaySession.start}. */
export interface SwaySessionOptions {
  /** Start XWayland too; its DISPLAY is then in {@linkcode SwaySession.env}. */
  xwayland?: boolean;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (performance.now() > deadline) {
      throw new Error(`sway session: ${what} did not appear in ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A running headless sway session. Dispose to stop everything it started. */
export class SwaySession implements AsyncDisposable {
  readonly #children: Deno.ChildProcess[];
  #stopped = false;

  private constructor(
    readonly runtimeDir: string,
    readonly env: Record<string, string>,
    children: Deno.ChildProcess[],
  ) {
    this.#children = children;
  }

  /** Starts the buses and sway and waits for sway's Wayland and IPC sockets. */
  static async start(options: SwaySessionOptions = {}): Promise<SwaySession> {
    const runtimeDir = await Deno.makeTempDir({ prefix: "cua-sway-" });
    await Deno.chmod(runtimeDir, 0o700);
    const children: Deno.ChildProcess[] = [];
    const spawn = (program: string, args: string[], env: Record<string, string>) => {
      const child = new Deno.Command(program, {
        args,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: Deno.env.get("CUA_TEST_VERBOSE") === "1" ? "inherit" : "null",
      }).spawn();
      children.push(child);
      return child;
    };
    const base = {
      PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${runtimeDir}/bus`,
    };
    const session = new SwaySession(runtimeDir, base, children);
    try {
      spawn("dbus-daemon", [
        "--session",
        `--address=${base.DBUS_SESSION_BUS_ADDRESS}`,
        "--nofork",
        "--nopidfile",
      ], base);
      await waitFor(
        "the session bus",
        async () => (await Deno.stat(`${runtimeDir}/bus`)).isSocket ? true : null,
      );
      spawn("/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"], base);
      const atspiBus = await waitFor("the AT-SPI bus", async () => {
        const out = await new Deno.Command("gdbus", {
          args: [
            "call",
            "--session",
            "--dest",
            "org.a11y.Bus",
            "--object-path",
            "/org/a11y/bus",
            "--method",
            "org.a11y.Bus.GetAddress",
          ],
          env: base,
          clearEnv: true,
          stdout: "piped",
          stderr: "null",
        }).output();
        const address = /'([^']+)'/.exec(new TextDecoder().decode(out.stdout))?.[1];
        return out.success && address ? address : null;
      });
      await Deno.writeTextFile(`${runtimeDir}/sway.config`, config(options.xwayland ?? false));
      spawn("unshare", [
        "--user",
        "--map-user=1000",
        "--map-group=1000",
        "sway",
        "-c",
        `${runtimeDir}/sway.config`,
      ], {
        ...base,
        WLR_BACKENDS: "headless",
        WLR_LIBINPUT_NO_DEVICES: "1",
        WLR_RENDERER: "pixman",
      });
      const [display, swaySocket] = await waitFor("sway's sockets", async () => {
        let display: string | null = null;
        let ipc: string | null = null;
        for await (const entry of Deno.readDir(runtimeDir)) {
          if (/^wayland-\d+$/.test(entry.name)) display = entry.name;
          if (/^sway-ipc\..*\.sock$/.test(entry.name)) ipc = `${runtimeDir}/${entry.name}`;
        }
        return display && ipc ? [display, ipc] as const : null;
      });
      Object.assign(base, { WAYLAND_DISPLAY: display, SWAYSOCK: swaySocket, AT_SPI_BUS_ADDRESS: atspiBus });
      // The compositor answers IPC once its outputs are up.
      await waitFor(
        "sway's IPC",
        async () => (await session.swaymsg("-t", "get_outputs")).includes("HEADLESS-1") || null,
      );
      if (options.xwayland) {
        // sway 1.7 cannot be told XWayland's display; it puts it in its children's environment.
        const file = `${runtimeDir}/xwayland-display`;
        await session.swaymsg("exec", `printf %s "$DISPLAY" > ${file}`);
        const display = await waitFor(
          "XWayland's DISPLAY",
          async () => (await Deno.readTextFile(file)) || null,
        );
        Object.assign(base, { DISPLAY: display });
      }
      return session;
    } catch (error) {
      await session.stop();
      throw error;
    }
  }

  /** The environment of a native Wayland GTK/Qt app in this session (accessibility on). */
  appEnv(): Record<string, string> {
    return {
      ...this.env,
      DISPLAY: "",
      GDK_BACKEND: "wayland",
      QT_QPA_PLATFORM: "wayland",
      ...ACCESSIBILITY,
    };
  }

  /** The environment of an X11 app on XWayland (needs `xwayland: true`). */
  xwaylandAppEnv(): Record<string, string> {
    if (!this.env.DISPLAY) throw new Error("sway session: started without XWayland");
    return { ...this.env, GDK_BACKEND: "x11", QT_QPA_PLATFORM: "xcb", ...ACCESSIBILITY };
  }

  /** Runs swaymsg with `args` and returns its stdout. */
  async swaymsg(...args: string[]): Promise<string> {
    const out = await new Deno.Command("swaymsg", {
      args,
      env: this.env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    if (!out.success) throw new Error(`swaymsg ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  }

  /** sway's windows (independent of the driver): container id, pid, app id, title, rect, focus. */
  async windows(): Promise<SwayTreeWindow[]> {
    const tree = JSON.parse(await this.swaymsg("-t", "get_tree"));
    const out: SwayTreeWindow[] = [];
    const walk = (node: SwayTreeNode) => {
      if (node.pid !== undefined) {
        out.push({
          id: node.id,
          pid: node.pid,
          appId: node.app_id ?? null,
          title: node.name ?? "",
          rect: { x: node.rect.x, y: node.rect.y, width: node.rect.width, height: node.rect.height },
          focused: node.focused,
        });
      }
      for (const child of [...(node.nodes ?? []), ...(node.floating_nodes ?? [])]) walk(child);
    };
    walk(tree);
    return out;
  }

  /** An independent capture of the output with grim, as RGB bytes (PPM). */
  async grim(
    region?: { x: number; y: number; width: number; height: number },
  ): Promise<{ width: number; height: number; rgb: Uint8Array }> {
    const args = [
      "-t",
      "ppm",
      ...(region ? ["-g", `${region.x},${region.y} ${region.width}x${region.height}`] : []),
      "-",
    ];
    const out = await new Deno.Command("grim", {
      args,
      env: this.env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    if (!out.success) throw new Error(`grim: ${new TextDecoder().decode(out.stderr)}`);
    return parsePpm(out.stdout);
  }

  /** Stops everything started, removes the runtime directory. Idempotent. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const child of [...this.#children].reverse()) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already exited.
      }
      await child.status;
    }
    await Deno.remove(this.runtimeDir, { recursive: true }).catch(() => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

/** One window as swaymsg reports it. */
export interface SwayTreeWindow {
  id: number;
  pid: number;
  appId: string | null;
  title: string;
  rect: { x: number; y: number; width: number; height: number };
  focused: boolean;
}

interface SwayTreeNode {
  id: number;
  pid?: number;
  app_id?: string | null;
  name?: string | null;
  rect: { x: number; y: number; width: number; height: number };
  focused: boolean;
  nodes?: SwayTreeNode[];
  floating_nodes?: SwayTreeNode[];
}

/** A binary PPM (P6, maxval 255). */
export function parsePpm(bytes: Uint8Array): { width: number; height: number; rgb: Uint8Array } {
  let offset = 0;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(bytes[offset]))) offset++;
    let field = "";
    while (!/\s/.test(String.fromCharCode(bytes[offset]))) field += String.fromCharCode(bytes[offset++]);
    fields.push(field);
  }
  offset++; // the one whitespace byte after maxval
  const [magic, width, height] = [fields[0], Number(fields[1]), Number(fields[2])];
  if (magic !== "P6") throw new Error(`not a binary PPM: ${magic}`);
  return { width, height, rgb: bytes.subarray(offset, offset + width * height * 3) };
}
