/**
 * Running programs on Windows for the core (ffmpeg, browsers, helpers): to completion
 * with output captured, or started with a handle. A program that must end with the
 * driver is put in a job object that kills it when the driver's handle closes (also
 * when the driver is killed).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { JOB, kernel32, PROCESS_JOB_ACCESS } from "../../../ffi/windows/kernel32.ts";
import type { ProcessHandle, ProcessOptions, RunOutput, SpawnOptions, StopKind } from "../../ports/system.ts";

/** One job object for the driver's lifetime, created on first use. */
let job: Deno.PointerValue = null;

function endWithDriver(pid: number): void {
  if (!job) {
    job = kernel32.symbols.CreateJobObjectW(null, null);
    if (!job) return;
    const info = new Uint8Array(JOB.EXTENDED_LIMIT_SIZE);
    new DataView(info.buffer).setUint32(JOB.LIMIT_FLAGS, JOB.KILL_ON_JOB_CLOSE, true);
    kernel32.symbols.SetInformationJobObject(job, JOB.EXTENDED_LIMIT_INFORMATION, info, info.length);
  }
  const process = kernel32.symbols.OpenProcess(PROCESS_JOB_ACCESS, 0, pid);
  if (!process) return;
  try {
    kernel32.symbols.AssignProcessToJobObject(job, process);
  } finally {
    kernel32.symbols.CloseHandle(process);
  }
}

function environment(options: ProcessOptions): { env?: Record<string, string>; clearEnv?: boolean } {
  return { env: options.env, clearEnv: options.clearEnv };
}

/** Runs a program to completion; code -1 when it could not be started. */
export async function windowsRun(argv: readonly string[], options: ProcessOptions = {}): Promise<RunOutput> {
  const [program, ...args] = argv;
  try {
    const output = await new Deno.Command(program, {
      args,
      ...environment(options),
      cwd: options.cwd,
      signal: options.signal,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      success: output.success,
      code: output.code,
      signal: null,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } catch (error) {
    return { success: false, code: -1, signal: null, stdout: "", stderr: (error as Error).message };
  }
}

/**
 * Starts a program.
 *
 * @throws {DriverError} `launch_failed` when it cannot be started
 */
export function windowsSpawn(argv: readonly string[], options: SpawnOptions = {}): Promise<ProcessHandle> {
  const [program, ...args] = argv;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      ...environment(options),
      cwd: options.cwd,
      signal: options.signal,
      stdin: options.stdin ?? "null",
      stdout: options.stdout ?? "null",
      stderr: options.stderr ?? "null",
    }).spawn();
  } catch (error) {
    throw new DriverError(
      "launch_failed",
      `Cannot start ${JSON.stringify(program)}: ${(error as Error).message}`,
      {
        hint: "check that the program is installed and on PATH",
      },
      { cause: error },
    );
  }
  if (options.endWithDriver) endWithDriver(child.pid);
  const status = child.status.then((s) => ({ success: s.success, code: s.code, signal: null }));
  return Promise.resolve({
    pid: child.pid,
    status,
    stdin: options.stdin === "piped" ? child.stdin : null,
    stdout: options.stdout === "piped" ? child.stdout : null,
    stderr: options.stderr === "piped" ? child.stderr : null,
    stop(kind: StopKind) {
      // Windows has no signals: an interrupt asks a console program to quit through its
      // stdin when it is piped (ffmpeg reads "q"), everything else terminates it.
      if (kind === "interrupt" && options.stdin === "piped") {
        const writer = child.stdin.getWriter();
        writer.write(new TextEncoder().encode("q")).catch(() => {}).finally(() => writer.releaseLock());
        return;
      }
      try {
        child.kill(kind === "kill" ? "SIGKILL" : "SIGTERM");
      } catch {
        // Already gone.
      }
    },
  });
}
