/**
 * A scripted {@linkcode SystemBackend} for unit tests: which programs exist, what
 * running them does, which processes own what. Every call is recorded.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type {
  DirectoryClass,
  InstallableFeature,
  LocalConnection,
  LocalListener,
  PackageInstaller,
  PackageInstallOutcome,
  PackageInstallPlan,
  ProcessHandle,
  RunOutput,
  SystemBackend,
} from "../../ports/system.ts";

/** The scripted system. */
export class FakeSystem implements SystemBackend {
  readonly calls: string[] = [];
  /** Program name or path → its path. */
  executables = new Map<string, string>();
  /** What `run` answers for a program (by argv[0]); default: success with no output. */
  runs = new Map<string, Partial<RunOutput>>();
  /** Every argv run or spawned. */
  readonly ran: string[][] = [];
  executablesByPid = new Map<number, string>();
  commandLines = new Map<number, string[]>();
  listeners = new Map<number, number[]>();
  elevated = false;
  /** Plans by feature; a feature missing gives null. */
  plans = new Map<InstallableFeature, PackageInstallPlan>();
  /** Runs when a plan is installed (to make the program appear, say). */
  onInstall: ((plan: PackageInstallPlan) => PackageInstallOutcome) | null = null;
  packagesAvailable = true;
  clock = 0;

  findExecutable(name: string): Promise<string | null> {
    this.calls.push(`findExecutable ${name}`);
    return Promise.resolve(this.executables.get(name) ?? null);
  }

  run(argv: readonly string[]): Promise<RunOutput> {
    this.ran.push([...argv]);
    const scripted = this.runs.get(argv[0]) ?? {};
    const code = scripted.code ?? 0;
    return Promise.resolve({ success: code === 0, code, signal: null, stdout: "", stderr: "", ...scripted });
  }

  spawn(argv: readonly string[]): Promise<ProcessHandle> {
    this.ran.push([...argv]);
    let exit!: (code: number) => void;
    const status = new Promise<number>((resolve) => exit = resolve).then((code) => ({
      success: code === 0,
      code,
      signal: null,
    }));
    return Promise.resolve({
      pid: 40_000 + this.ran.length,
      status,
      stdin: null,
      stdout: null,
      stderr: null,
      stop: (kind) => exit(kind === "interrupt" ? 255 : 143),
    });
  }

  processExecutable(pid: number): Promise<string | null> {
    return Promise.resolve(this.executablesByPid.get(pid) ?? null);
  }

  processCommandLine(pid: number): Promise<string[] | null> {
    return Promise.resolve(this.commandLines.get(pid) ?? null);
  }

  ownsTcpListener(pid: number, port: number): Promise<boolean | null> {
    return Promise.resolve(this.listeners.get(pid)?.includes(port) ?? false);
  }

  isElevated(): boolean {
    return this.elevated;
  }

  ownedByUser(): Promise<boolean | null> {
    return Promise.resolve(true);
  }

  classifyDirectory(path: string): DirectoryClass {
    return path === "/" || path === "/tmp" ? "shared_root" : path.startsWith("/usr") ? "system" : "other";
  }

  /** What cacheDir() answers. */
  cacheDirectory = "/tmp/cua-driver-fake-cache";

  cacheDir(): string {
    return this.cacheDirectory;
  }

  monotonicMs(): number {
    return this.clock;
  }

  get packages(): PackageInstaller | null {
    if (!this.packagesAvailable) return null;
    return {
      plan: (feature) => Promise.resolve(this.plans.get(feature) ?? null),
      install: (plan) => {
        this.ran.push(plan.runs);
        return Promise.resolve(this.onInstall?.(plan) ?? { ran: [plan.runs], exitCode: 0, outputTail: "" });
      },
      managers: ["fake-get"],
    };
  }

  readonly sockets = {
    defaultAddress: () => "/tmp/cua-driver-fake.sock",
    listen: (address: string): Promise<LocalListener> => Promise.reject(noSockets(address)),
    connect: (address: string): Promise<LocalConnection> => Promise.reject(noSockets(address)),
    exists: () => false,
  };
}

function noSockets(address: string): DriverError {
  return new DriverError("daemon_unavailable", `The fake system has no socket at ${address}`);
}
