/**
 * The apps capability: running programs, their windows, and launching them.
 *
 * @module
 */

/** A running process. */
export interface ProcessInfo {
  pid: number;
  name: string;
}

/** An app known to the desktop, running or installed. */
export interface AppInfo {
  pid: number;
  bundleId: string | null;
  name: string;
  running: boolean;
  active: boolean;
  kind: string | null;
  launchPath: string | null;
  lastUsed: string | null;
}

/** What launch_app asks for. */
export interface LaunchRequest {
  /** One program: a path, a name on PATH, a `.desktop` file, or an installed app's launch path from list_apps. */
  launchPath?: string;
  /** An installed app's name or desktop-file id, or a program name. */
  name?: string;
  urls?: string[];
  /** The program's arguments, passed as they are (never split or interpreted by a shell). */
  additionalArguments?: string[];
  /**
   * Called with the exact program and arguments once they are resolved, right before
   * anything starts; it throws to refuse (bounded mode's manifest check).
   */
  authorize?: (program: LaunchProgram) => void;
  /**
   * The caller's permission mode (default standard): what the back end's launch guard lets
   * through depends on it (contract: README "Permissions").
   */
  mode?: "standard" | "bounded" | "unrestricted";
}

/** The program a launch resolved to, as it will run. */
export interface LaunchProgram {
  /** The executable, every symlink resolved: this file is what runs. */
  realPath: string;
  /** Device and inode of that file. */
  dev: number;
  ino: number;
  /** Its arguments, without argv[0]. */
  args: readonly string[];
  /**
   * The arguments the caller chose (without an installed app's own); bounded mode checks
   * them against the manifest. Equal to `args` when the back end cannot tell them apart.
   */
  callerArgs?: readonly string[];
}

/** What a launch produced. */
export interface LaunchResult {
  pid: number | null;
  name: string;
  /** Process start time, to tell a later process with a reused pid apart. */
  startTime: string | null;
  command: string;
  /**
   * The launcher process `pid` runs behind (LibreOffice's oosplash), when there is one: the
   * app can restart under it, so follow it with {@linkcode AppBackend.appBehind}.
   */
  launcher?: number | null;
}

/** Processes and apps. */
export interface AppBackend {
  listApps(): Promise<AppInfo[]>;
  listProcesses(): Promise<ProcessInfo[]>;
  launch(request: LaunchRequest): Promise<LaunchResult>;
  /** Force-terminates a process. */
  kill(pid: number): Promise<void>;
  /** The exit code of a process launch() started, once it has exited; null while unknown. */
  exitCode?(pid: number): Promise<number | null>;
  /** Asks a process to end (SIGTERM: it may save and clean up first). Absent where the platform cannot. */
  terminate?(pid: number): Promise<void>;
  /** True while the process exists and is not a zombie. */
  isAlive(pid: number): Promise<boolean>;
  /** Start time of a process, to detect pid reuse; null if unknown. */
  startTime(pid: number): Promise<string | null>;
  /**
   * The app a launcher reported in {@linkcode LaunchResult.launcher} runs now (a new pid
   * after the app restarted under it); null while it runs none. Only back ends whose
   * launches can have launchers implement it.
   */
  appBehind?(launcher: number): Promise<number | null>;
}
