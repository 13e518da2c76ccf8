/**
 * A private X11 desktop for machines without one (CI, containers, SSH sessions):
 * Xvfb, a session D-Bus, the AT-SPI accessibility bus and the openbox window manager.
 *
 * @module
 */
import { ACCESSIBILITY_ENV, TOOLKIT_DEFAULTS } from "./a11y_env.ts";
import { DESKTOP_PROGRAMS, type DesktopProgramPaths, resolveDesktopPrograms } from "./desktop_programs.ts";
import { abortedError, DesktopProcess, pollUntil, runQuiet } from "./desktop_process.ts";
import { DesktopReaper } from "./desktop_reaper.ts";

/** Options of {@linkcode EmbeddedDesktop.start}. */
export interface EmbeddedDesktopOptions {
  /** Screen width in pixels; default 1920. */
  width?: number;
  /** Screen height in pixels; default 1080. */
  height?: number;
  /** Receives progress lines and the children's output. */
  log?: (line: string) => void;
  /** Aborts start-up; once started, aborting stops the desktop. */
  signal?: AbortSignal;
  /** Stop the desktop and exit (128 + signal number) on SIGINT and SIGTERM; default true. */
  handleSignals?: boolean;
}

const STEP_TIMEOUT_MS = 10_000;
const POLL_INTERVAL_MS = 15;
const STOP_GRACE_MS = 1_500;
const EXIT_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * A running private desktop. Its {@linkcode env} is what a program needs to run on it.
 * It is stopped by {@linkcode stop}, on SIGINT and SIGTERM, and when the process exits;
 * if the process dies without running any of those, a watchdog process cleans up.
 *
 * @example
 * ```ts ignore
 * await using desktop = await EmbeddedDesktop.start();
 * await new Deno.Command("gtk3-widget-factory", { env: desktop.env }).spawn().status;
 * ```
 */
export class EmbeddedDesktop {
  #programs: DesktopProgramPaths;
  #log: (line: string) => void;
  #tempDir: string;
  #reaper: DesktopReaper;
  #processes: DesktopProcess[] = [];
  #xvfb: DesktopProcess | null = null;
  #display = "";
  #dbusAddress = "";
  #startupMs = 0;
  #stopping: Promise<void> | null = null;
  #signalHandlers: [Deno.Signal, () => void][] = [];
  /** Writes to the reaper still in flight; start() waits for them. */
  #reaperWrites: Promise<void>[] = [];
  #onUnload = () => this.#killNow();
  #abortSignal: AbortSignal | undefined;
  #onAbort = () => void this.stop();

  private constructor(programs: DesktopProgramPaths, tempDir: string, log: (line: string) => void) {
    this.#programs = programs;
    this.#tempDir = tempDir;
    this.#log = log;
    this.#reaper = DesktopReaper.start(programs.setsid, tempDir);
  }

  /**
   * Starts Xvfb (display number chosen by Xvfb itself), a session bus, the AT-SPI bus
   * and openbox, and waits until each one answers.
   *
   * @throws {DriverError} `display_unavailable` naming the program that is missing or failed;
   *   `aborted` when `options.signal` aborts.
   */
  static async start(options: EmbeddedDesktopOptions = {}): Promise<EmbeddedDesktop> {
    const started = performance.now();
    const width = options.width ?? 1920;
    const height = options.height ?? 1080;
    if (![width, height].every((n) => Number.isInteger(n) && n >= 64 && n <= 16384)) {
      throw new RangeError(`Invalid embedded desktop size ${width}x${height}`);
    }
    if (options.signal?.aborted) throw abortedError();
    const programs = resolveDesktopPrograms();
    const tempDir = await Deno.makeTempDir({ prefix: "cua-desktop-" });
    const desktop = new EmbeddedDesktop(programs, tempDir, options.log ?? (() => {}));
    try {
      desktop.#installCleanup(options.handleSignals ?? true);
      await desktop.#boot(width, height, options.signal);
      if (options.signal?.aborted) throw abortedError();
    } catch (error) {
      await desktop.stop();
      throw error;
    }
    desktop.#startupMs = Math.round(performance.now() - started);
    desktop.#log(`desktop ${desktop.#display} ready in ${desktop.#startupMs} ms`);
    if (options.signal !== undefined) {
      desktop.#abortSignal = options.signal;
      options.signal.addEventListener("abort", desktop.#onAbort, { once: true });
    }
    return desktop;
  }

  /** The X display, such as `":1"`. */
  get display(): string {
    return this.#display;
  }

  /** The private session bus address. */
  get dbusAddress(): string {
    return this.#dbusAddress;
  }

  /**
   * Variables to add to a child's environment so it runs on this desktop, with
   * accessibility on: GTK's and Qt's bridges loaded, GTK 4 rendering in software
   * (Xvfb has no GPU; GTK 4's GL renderer would leave it unregistered).
   */
  get env(): Readonly<Record<string, string>> {
    return {
      DISPLAY: this.#display,
      DBUS_SESSION_BUS_ADDRESS: this.#dbusAddress,
      XDG_RUNTIME_DIR: this.#tempDir,
      GDK_BACKEND: "x11",
      ...ACCESSIBILITY_ENV,
      ...TOOLKIT_DEFAULTS,
      GSK_RENDERER: "cairo",
    };
  }

  /** Process ids of the programs this desktop started (each also leads its process group). */
  get pids(): readonly number[] {
    return [...this.#processes.map((p) => p.pid), this.#reaper.pid];
  }

  /** How long {@linkcode start} took, in milliseconds. */
  get startupMs(): number {
    return this.#startupMs;
  }

  /** True once {@linkcode stop} has been called. */
  get stopped(): boolean {
    return this.#stopping !== null;
  }

  /**
   * Lets the Deno process exit while the desktop runs; the desktop is then stopped on exit.
   * By default a running desktop, like a server, keeps the process alive until {@linkcode stop}.
   */
  unref(): void {
    for (const process of this.#processes) process.unref();
    this.#reaper.unref();
  }

  /** Stops every program the desktop started and removes its files. Safe to call more than once. */
  stop(): Promise<void> {
    this.#stopping ??= this.#shutdown();
    return this.#stopping;
  }

  /** Same as {@linkcode stop}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  async #boot(width: number, height: number, signal?: AbortSignal): Promise<void> {
    const xvfb = this.#spawn("xvfb", [
      ...["-displayfd", "1", "-screen", "0", `${width}x${height}x24`],
      ...["-nolisten", "tcp", "+extension", "MIT-SHM", "-noreset"],
    ], {});
    this.#xvfb = xvfb;
    const displayNumber = await xvfb.firstLine(STEP_TIMEOUT_MS, signal);
    if (!/^\d+$/.test(displayNumber)) throw xvfb.failure(`reported display "${displayNumber}"`);
    this.#display = `:${displayNumber}`;
    this.#reaperWrites.push(this.#reaper.watchDisplay(displayNumber).catch(() => {}));
    this.#log(`Xvfb on ${this.#display}`);

    // The bus starts after Xvfb so that services it activates inherit DISPLAY.
    const dbus = this.#spawn("dbusDaemon", [
      ...["--session", "--nofork", "--nopidfile", "--print-address=1"],
      `--address=unix:path=${this.#tempDir}/bus`,
    ], { DISPLAY: this.#display });
    this.#dbusAddress = await dbus.firstLine(STEP_TIMEOUT_MS, signal);
    this.#log(`session bus at ${this.#dbusAddress}`);

    await Promise.all([this.#startAccessibilityBus(signal), this.#startWindowManager(signal)]);
    // The reaper must know every group before start() returns and the caller can crash.
    await Promise.all(this.#reaperWrites);
  }

  async #startAccessibilityBus(signal?: AbortSignal): Promise<void> {
    const launcher = this.#spawn("atspiBusLauncher", ["--launch-immediately"], this.env);
    const args = [
      ...["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/"],
      ...["org.freedesktop.DBus.NameHasOwner", "string:org.a11y.Bus"],
    ];
    await pollUntil(async () => {
      const reply = await runQuiet(this.#programs.dbusSend, args, this.#childEnv(this.env));
      return reply.success && reply.stdout.includes("boolean true");
    }, {
      timeoutMs: STEP_TIMEOUT_MS,
      intervalMs: POLL_INTERVAL_MS,
      signal,
      failed: () => launcher.exited ? launcher.failure("exited") : null,
      onTimeout: () => launcher.failure(`did not own org.a11y.Bus within ${STEP_TIMEOUT_MS} ms`),
    });
    this.#log("AT-SPI bus up");
  }

  async #startWindowManager(signal?: AbortSignal): Promise<void> {
    const openbox = this.#spawn("openbox", ["--sm-disable"], this.env);
    const args = ["-display", this.#display, "-root", "_NET_SUPPORTING_WM_CHECK"];
    await pollUntil(async () => {
      const reply = await runQuiet(this.#programs.xprop, args, this.#childEnv(this.env));
      return reply.success && reply.stdout.includes("window id #");
    }, {
      timeoutMs: STEP_TIMEOUT_MS,
      intervalMs: POLL_INTERVAL_MS,
      signal,
      failed: () => openbox.exited ? openbox.failure("exited") : null,
      onTimeout: () => openbox.failure(`did not set _NET_SUPPORTING_WM_CHECK within ${STEP_TIMEOUT_MS} ms`),
    });
    this.#log("openbox managing windows");
  }

  #spawn(key: keyof typeof DESKTOP_PROGRAMS, args: string[], env: Record<string, string>): DesktopProcess {
    const process = DesktopProcess.spawn(DESKTOP_PROGRAMS[key], {
      setsid: this.#programs.setsid,
      path: this.#programs[key],
      args,
      env: this.#childEnv(env),
      log: this.#log,
    });
    this.#processes.push(process);
    this.#reaperWrites.push(this.#reaper.watch(process.pid).catch(() => {}));
    return process;
  }

  /** The parent's environment without its own display and bus, plus `extra`. */
  #childEnv(extra: Record<string, string>): Record<string, string> {
    const env = Deno.env.toObject();
    for (const key of ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY"]) {
      delete env[key];
    }
    return { ...env, XDG_RUNTIME_DIR: this.#tempDir, ...extra };
  }

  #installCleanup(handleSignals: boolean): void {
    globalThis.addEventListener("unload", this.#onUnload);
    if (!handleSignals) return;
    for (const [name, code] of Object.entries(EXIT_SIGNALS) as [Deno.Signal, number][]) {
      const handler = () => void this.stop().finally(() => Deno.exit(code));
      Deno.addSignalListener(name, handler);
      this.#signalHandlers.push([name, handler]);
    }
  }

  #removeCleanup(): void {
    globalThis.removeEventListener("unload", this.#onUnload);
    for (const [name, handler] of this.#signalHandlers) Deno.removeSignalListener(name, handler);
    this.#signalHandlers = [];
    this.#abortSignal?.removeEventListener("abort", this.#onAbort);
  }

  /** Synchronous last resort for `unload`: signal every group; the reaper finishes the job. */
  #killNow(): void {
    for (const process of this.#processes) process.kill("SIGTERM");
    this.#reaper.abandon();
    try {
      Deno.removeSync(this.#tempDir, { recursive: true });
    } catch {
      // Already gone or still in use; the reaper removes it.
    }
  }

  async #shutdown(): Promise<void> {
    this.#removeCleanup();
    // Clients first, the X server last, so nothing logs a lost display on the way down.
    const clients = this.#processes.filter((p) => p !== this.#xvfb);
    await Promise.all(clients.map((p) => p.terminate(STOP_GRACE_MS)));
    if (this.#xvfb !== null) await this.#xvfb.terminate(STOP_GRACE_MS);
    await this.#reaper.close();
    this.#removeStaleXFiles();
    await Deno.remove(this.#tempDir, { recursive: true }).catch(() => {});
    if (this.#display !== "") this.#log(`desktop ${this.#display} stopped`);
  }

  /**
   * Xvfb removes its socket and lock on SIGTERM, but not if it had to be killed (and a
   * kill in the middle of its clean-up can leave the socket without the lock).
   */
  #removeStaleXFiles(): void {
    if (this.#xvfb === null || this.#display === "") return;
    const number = this.#display.slice(1);
    const lock = `/tmp/.X${number}-lock`;
    let owner: number | null = null;
    try {
      owner = Number(Deno.readTextFileSync(lock).trim());
    } catch {
      // No lock: nobody holds the display.
    }
    if (owner !== null && owner !== this.#xvfb.pid) return;
    for (const path of [lock, `/tmp/.X11-unix/X${number}`]) {
      try {
        Deno.removeSync(path);
      } catch {
        // Already gone.
      }
    }
  }
}
