/**
 * A "user desktop" as an SSH user finds it: an X server that needs its Xauthority cookie,
 * a session bus at `$XDG_RUNTIME_DIR/bus`, the AT-SPI bus launched on that bus (so the
 * root window carries `AT_SPI_BUS`), and a window manager; apps started with
 * {@linkcode UserDesktop.env} run in it. Nothing of it is in the test's own environment.
 *
 * @module
 */
import { join } from "node:path";

const PROGRAMS = {
  atspiBusLauncher: ["/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher"],
};

async function run(program: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command(program, { args, env, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${program} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`user desktop: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A running user desktop; stop it with {@linkcode UserDesktop.stop}. */
export class UserDesktop implements AsyncDisposable {
  readonly #children: Deno.ChildProcess[] = [];
  private constructor(
    readonly display: string,
    readonly dir: string,
    readonly xauthority: string,
    readonly runtimeDir: string,
    readonly home: string,
  ) {}

  /** The session's variables, as the desktop's own apps have them. */
  get env(): Record<string, string> {
    return {
      DISPLAY: this.display,
      XAUTHORITY: this.xauthority,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${this.runtimeDir}/bus`,
      XDG_RUNTIME_DIR: this.runtimeDir,
      GDK_BACKEND: "x11",
      NO_AT_BRIDGE: "0",
    };
  }

  /** Starts Xvfb with a cookie, the session bus, AT-SPI and openbox. */
  static async start(size = "1280x800"): Promise<UserDesktop> {
    const dir = await Deno.makeTempDir({ prefix: "cua-user-desktop-" });
    const runtimeDir = join(dir, "runtime"), home = join(dir, "home");
    await Deno.mkdir(runtimeDir, { mode: 0o700 });
    await Deno.mkdir(home);
    const xauthority = join(dir, "Xauthority");
    const cookie = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    let desktop: UserDesktop | null = null;
    for (let n = 60; n < 100 && desktop === null; n++) {
      if (exists(`/tmp/.X11-unix/X${n}`) || exists(`/tmp/.X${n}-lock`)) continue;
      await run("xauth", ["-f", xauthority, "add", `:${n}`, ".", cookie]);
      const xvfb = new Deno.Command("Xvfb", {
        // -noreset: a real session always has clients; without them Xvfb resets and drops AT_SPI_BUS.
        args: [`:${n}`, "-auth", xauthority, "-nolisten", "tcp", "-noreset", "-screen", "0", `${size}x24`],
        stdout: "null",
        stderr: "null",
      }).spawn();
      const candidate = new UserDesktop(`:${n}`, dir, xauthority, runtimeDir, home);
      candidate.#children.push(xvfb);
      const up = await Promise.race([
        until(`Xvfb :${n}`, async () => {
          const probe = await new Deno.Command("xdpyinfo", {
            args: ["-display", `:${n}`],
            env: { XAUTHORITY: xauthority },
            stdout: "null",
            stderr: "null",
          }).output();
          return probe.success;
        }, 5_000).then(() => true, () => false),
        xvfb.status.then(() => false),
      ]);
      if (up) desktop = candidate;
      else await candidate.stop(false);
    }
    if (desktop === null) throw new Error("user desktop: no free display number in :60-:99");
    try {
      await desktop.#boot();
    } catch (error) {
      await desktop.stop();
      throw error;
    }
    return desktop;
  }

  async #boot(): Promise<void> {
    const env = this.env;
    this.#spawn("dbus-daemon", [
      "--session",
      "--nofork",
      "--nopidfile",
      `--address=unix:path=${this.runtimeDir}/bus`,
    ], env);
    await until("the session bus", () => Promise.resolve(exists(`${this.runtimeDir}/bus`)));
    this.#spawn("openbox", ["--sm-disable"], env);
    await until("openbox", async () => {
      const text = await run("xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], env).catch(() => "");
      return text.includes("window id #");
    });
    const launcher = PROGRAMS.atspiBusLauncher.find(exists);
    if (!launcher) throw new Error("user desktop: at-spi-bus-launcher is not installed");
    this.#spawn(launcher, ["--launch-immediately"], env);
    await until("AT_SPI_BUS on the root window", async () => {
      const text = await run("xprop", ["-root", "AT_SPI_BUS"], env).catch(() => "");
      return text.includes("unix:");
    });
  }

  #spawn(program: string, args: string[], env: Record<string, string>): void {
    const child = new Deno.Command(program, {
      args,
      env: { ...env, HOME: this.home },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    this.#children.push(child);
  }

  /** Stops every program (the X server last) and removes the files. */
  async stop(removeDir = true): Promise<void> {
    for (const child of [...this.#children].reverse()) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await child.status;
    }
    this.#children.length = 0;
    if (removeDir) await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}
