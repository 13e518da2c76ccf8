/**
 * Running programs on Linux and macOS (`SystemBackend.run` and `spawn`).
 *
 * A program that must end with the driver (`endWithDriver`, a screen recorder) runs under
 * a small `sh` watchdog: the watchdog's stdin is a pipe from the driver, and when it
 * closes (the driver exited or was killed) or a line arrives ({@linkcode ProcessHandle.stop}
 * "interrupt"), the watchdog sends the program SIGINT, on which ffmpeg finishes its file.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type {
  ExitStatus,
  ProcessHandle,
  ProcessOptions,
  RunOutput,
  SpawnOptions,
  StopKind,
} from "../../ports/system.ts";

// $1 is the program, the rest its arguments. Prints its pid, then waits: a line or EOF on
// stdin sends it SIGINT. Exits with its status.
const WATCHDOG = `
exec 3<&0
"$@" </dev/null &
f=$!
echo "$f"
( read -r _ <&3; kill -INT "$f" 2>/dev/null ) &
w=$!
wait "$f"
code=$?
kill "$w" 2>/dev/null
exit "$code"
`;

const SIGNALS: Record<StopKind, Deno.Signal> = { interrupt: "SIGINT", terminate: "SIGTERM", kill: "SIGKILL" };

function exitStatus(status: Deno.CommandStatus): ExitStatus {
  return { success: status.success, code: status.code, signal: status.signal ?? null };
}

/** Runs a program to completion; a program that cannot start gives code -1 and the reason in stderr. */
export async function posixRun(argv: readonly string[], options: ProcessOptions = {}): Promise<RunOutput> {
  try {
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      env: options.env,
      clearEnv: options.clearEnv,
      cwd: options.cwd,
      signal: options.signal,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      ...exitStatus(out),
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } catch (error) {
    return { success: false, code: -1, signal: null, stdout: "", stderr: (error as Error).message };
  }
}

/**
 * Starts a program; resolves once its pid is known.
 *
 * @throws {DriverError} `launch_failed` when it cannot be started.
 */
export async function posixSpawn(
  argv: readonly string[],
  options: SpawnOptions = {},
): Promise<ProcessHandle> {
  const child = start(options.endWithDriver ? ["/bin/sh", "-c", WATCHDOG, "sh", ...argv] : argv, {
    env: options.env,
    clearEnv: options.clearEnv,
    cwd: options.cwd,
    stdin: options.endWithDriver ? "piped" : options.stdin ?? "null",
    stdout: options.endWithDriver ? "piped" : options.stdout ?? "null",
    stderr: options.stderr ?? "null",
  }, argv);
  let alive = true;
  const status = child.status.then(exitStatus).finally(() => alive = false);
  const signal = (pid: number, kind: StopKind) => {
    try {
      Deno.kill(pid, SIGNALS[kind]);
    } catch {
      // Already gone.
    }
  };
  let handle: ProcessHandle;
  if (!options.endWithDriver) {
    handle = {
      pid: child.pid,
      status,
      stdin: options.stdin === "piped" ? child.stdin : null,
      stdout: options.stdout === "piped" ? child.stdout : null,
      stderr: options.stderr === "piped" ? child.stderr : null,
      stop: (kind) => alive && signal(child.pid, kind),
    };
  } else {
    const writer = child.stdin.getWriter();
    const pid = Number(await firstLine(child.stdout).catch(() => "")) || child.pid;
    handle = {
      pid,
      status,
      stdin: null,
      stdout: null,
      stderr: options.stderr === "piped" ? child.stderr : null,
      stop(kind) {
        if (!alive) return;
        if (kind === "interrupt") {
          // The watchdog turns a line (or its stdin closing) into SIGINT for the program.
          writer.write(new TextEncoder().encode("q\n")).then(() => writer.close()).catch(() => {});
          return;
        }
        signal(pid, kind);
        if (kind === "kill") signal(child.pid, kind);
      },
    };
  }
  options.signal?.addEventListener("abort", () => handle.stop("kill"), { once: true });
  return handle;
}

function start(
  argv: readonly string[],
  options: Deno.CommandOptions,
  shown: readonly string[],
): Deno.ChildProcess {
  try {
    return new Deno.Command(argv[0], { ...options, args: argv.slice(1) }).spawn();
  } catch (error) {
    throw cannotStart(shown, error);
  }
}

function cannotStart(argv: readonly string[], error: unknown): DriverError {
  return new DriverError(
    "launch_failed",
    `Cannot start ${JSON.stringify(argv[0])}: ${(error as Error).message}`,
    {
      program: argv[0],
      hint: "check that the program is installed and executable",
    },
  );
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return text.split("\n")[0].trim();
}
