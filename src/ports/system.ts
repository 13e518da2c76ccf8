/**
 * The system capability: the OS facilities apart from the desktop (processes, programs,
 * packages, sockets, files).
 *
 * @module
 */

/** How a finished program ended. */
export interface ExitStatus {
  success: boolean;
  /** Exit code; -1 when the program could not be started. */
  code: number;
  /** The signal that ended it (POSIX), else null. */
  signal: string | null;
}

/** What {@linkcode SystemBackend.run} returns: the exit status and the program's output. */
export interface RunOutput extends ExitStatus {
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode SystemBackend.run} and {@linkcode SystemBackend.spawn}. */
export interface ProcessOptions {
  /** Variables added to the driver's environment. */
  env?: Record<string, string>;
  /** Start from an empty environment (plus `env`) instead of the driver's. */
  clearEnv?: boolean;
  cwd?: string;
  /** Kills the program when aborted. */
  signal?: AbortSignal;
}

/** Options of {@linkcode SystemBackend.spawn}. */
export interface SpawnOptions extends ProcessOptions {
  /** Default "null". "piped" gives the handle a `stdin` stream. */
  stdin?: "null" | "piped";
  /** Default "null". "piped" gives the handle a stream. */
  stdout?: "null" | "piped" | "inherit";
  stderr?: "null" | "piped" | "inherit";
  /**
   * The program is asked to finish ({@linkcode ProcessHandle.stop} "interrupt") when the driver
   * exits, even when the driver is killed (a POSIX watchdog, a Windows job object). For
   * programs that must end with the driver: a screen recorder.
   */
  endWithDriver?: boolean;
}

/** How to stop a program: ask it to finish (SIGINT, Ctrl+Break), ask it to quit (SIGTERM, WM_CLOSE), or kill it. */
export type StopKind = "interrupt" | "terminate" | "kill";

/** A program the driver started. */
export interface ProcessHandle {
  /** The program's own pid (not a wrapper's). */
  readonly pid: number;
  /** Resolves when the program exited (and was reaped). */
  readonly status: Promise<ExitStatus>;
  readonly stdin: WritableStream<Uint8Array> | null;
  readonly stdout: ReadableStream<Uint8Array> | null;
  readonly stderr: ReadableStream<Uint8Array> | null;
  /** Sends a stop request; ignores a program that is already gone. */
  stop(kind: StopKind): void;
}

/** A program file, identified by its real path and its inode. */
export interface ResolvedProgram {
  /** The path as found (on the search path, or the caller's path made absolute). */
  readonly path: string;
  /** The same file with every symlink resolved. */
  readonly realPath: string;
  /** Device and inode of the real file: two names of one file compare equal. */
  readonly dev: number;
  readonly ino: number;
}

/** A byte stream to a local peer: a Unix domain socket, a Windows named pipe. `Deno.Conn` fits. */
export interface LocalConnection {
  read(buffer: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  close(): void;
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

/** A local listener (the daemon's). */
export interface LocalListener extends AsyncIterable<LocalConnection> {
  /** The address it listens on. */
  readonly address: string;
  accept(): Promise<LocalConnection>;
  /** Stops listening and removes what `listen` created (the socket file). */
  close(): void;
}

/**
 * Local inter-process endpoints, addressed by a string: a socket path on Linux and macOS,
 * `\\.\pipe\<name>` on Windows. Only the driver's user may connect.
 */
export interface LocalSockets {
  /** The daemon's default address on this machine (`$CUA_DRIVER_SOCKET` overrides it). */
  defaultAddress(): string;
  /**
   * Listens on `address`, replacing a stale endpoint nothing answers on.
   *
   * @throws {DriverError} `daemon_unavailable` when a live peer already listens there.
   */
  listen(address: string): Promise<LocalListener>;
  /** Connects to `address`; rejects when nothing listens there. */
  connect(address: string): Promise<LocalConnection>;
  /** True when an endpoint exists at `address` (it may still be stale). */
  exists(address: string): boolean;
  /**
   * Where the daemon listening at `address` records its pid, when that is not a file beside the
   * socket (`<address without .sock>.pid`): a named pipe is no directory entry to put one beside.
   */
  pidFile?(address: string): string;
}

/** What a package installation would run (install_ffmpeg, install_extension). */
export interface PackageInstallPlan {
  /** The package manager ("apt-get", "dnf", "brew", "winget"). */
  manager: string;
  /** The command as a person would type it, without privilege elevation. */
  command: string[];
  /** The command exactly as `install` runs it (through `sudo -n` when elevation is needed). */
  runs: string[];
  /** How it would run: as an administrator already, through non-interactive elevation (`sudo -n`), or not at all. */
  privilege: "root" | "sudo" | "unavailable";
}

/** What an install attempt did. */
export interface PackageInstallOutcome {
  /** Each command run, as argv (including elevation when used). */
  ran: string[][];
  /** Exit code of the last command run. */
  exitCode: number;
  /** The last lines of its output. */
  outputTail: string;
}

/** Things the driver installs through the system package manager, named neutrally. */
export const InstallableFeature = {
  /** ffmpeg, for recording video. */
  Ffmpeg: "ffmpeg",
  /** The local text recognition engine and its language data (parse_visual_regions). */
  TextRecognition: "text_recognition",
} as const;

/** A neutral feature name (see {@linkcode InstallableFeature}). */
export type InstallableFeature = typeof InstallableFeature[keyof typeof InstallableFeature];

/** The system package manager, used only after the caller confirmed. Never downloads from anywhere else. */
export interface PackageInstaller {
  /** The plan that installs `feature` here; null when no supported package manager knows it. */
  plan(feature: InstallableFeature): Promise<PackageInstallPlan | null>;
  /** Runs a plan (non-interactively; refreshing package lists once when they lack the packages). */
  install(plan: PackageInstallPlan, signal: AbortSignal): Promise<PackageInstallOutcome>;
  /** The package managers this OS knows, in the order they are looked for (for messages). */
  readonly managers: readonly string[];
}

/** Where a directory sits, for deciding whether the driver may write into it for an agent. */
export type DirectoryClass =
  /** An OS tree (/usr, /etc, C:\\Windows): never written. */
  | "system"
  /** A root shared by users (/, /home, /tmp): not itself, only user-owned directories below it. */
  | "shared_root"
  /** Anything else. */
  | "other";

/**
 * The operating system under the driver, apart from the desktop: processes, programs,
 * package installs, local sockets, file ownership, clocks. Usable without a desktop
 * (`systemFor()` in `src/backends/mod.ts`; a daemon client takes only its sockets, `localSocketsFor()`).
 */
export interface SystemBackend {
  /**
   * The executable `name` resolves to: a path (checked to be an executable file) or a bare
   * name looked up on the program search path (PATH, with PATHEXT on Windows). The one
   * lookup of the driver.
   *
   * @param searchPath a PATH value to search instead of the driver's own.
   * @returns the absolute path, or null when nothing executable answers to the name.
   */
  findExecutable(name: string, searchPath?: string): Promise<string | null>;
  /** Runs a program to completion with its output captured; never throws for a missing program (code -1). */
  run(argv: readonly string[], options?: ProcessOptions): Promise<RunOutput>;
  /**
   * Starts a program; resolves once its pid is known.
   *
   * @throws {DriverError} `launch_failed` when it cannot be started.
   */
  spawn(argv: readonly string[], options?: SpawnOptions): Promise<ProcessHandle>;
  /**
   * The real file a program name runs (every symlink resolved, with its device and inode),
   * looked up the way the OS's exec does; null when nothing executable answers to it. For
   * comparing programs by identity (bounded mode). Optional: without it, a bare name matches
   * by the real file's base name only.
   */
  resolveProgram?(name: string): ResolvedProgram | null;
  /** The executable file of a running process (for bounded mode), or null when unknown. */
  processExecutable(pid: number): Promise<string | null>;
  /**
   * The same, synchronously, for filters over many processes (bounded mode's resource
   * scope). Optional: without it, bounded mode sees no process.
   */
  processExecutableSync?(pid: number): string | null;
  /**
   * Whether a process runs on the driver's desktop (bounded mode scopes to it): false for one
   * on another display of the machine (or whose display cannot be read), null when the driver
   * has no desktop to compare with. Optional: without it, every process counts as on it.
   */
  processOnDesktopSync?(pid: number): boolean | null;
  /** A running process's argv, or null when it is gone or unreadable. */
  processCommandLine(pid: number): Promise<string[] | null>;
  /**
   * Whether process `pid` owns the TCP socket listening on loopback `port`.
   *
   * @returns null when the OS does not let the driver tell.
   */
  ownsTcpListener(pid: number, port: number): Promise<boolean | null>;
  /** True when the driver runs with administrator rights (root, elevated token). */
  isElevated(): boolean;
  /** Whether the driver's user owns `path`; null when the OS does not say. */
  ownedByUser(path: string): Promise<boolean | null>;
  /** How the driver treats a directory an agent names as a write target (see {@linkcode DirectoryClass}). */
  classifyDirectory(path: string): DirectoryClass;
  /** The driver's cache directory (daemon socket, pid file, update cache). */
  cacheDir(): string;
  /** A monotonic clock in milliseconds shared by the processes of this machine (time since boot). */
  monotonicMs(): number;
  /** The system package manager; null when the OS has none the driver supports. */
  readonly packages: PackageInstaller | null;
  /** Local inter-process endpoints (the daemon). */
  readonly sockets: LocalSockets;
}
