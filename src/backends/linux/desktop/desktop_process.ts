/**
 * Child processes of an embedded desktop: each runs in its own session and process
 * group (through `setsid`), so stopping it also stops whatever it spawned (the
 * AT-SPI launcher's bus daemon and registry, for instance).
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import type { DesktopProgram } from "./desktop_programs.ts";
import { sleep } from "../../../lib/wait.ts";

const TAIL_LINES = 30;

/** How to start one {@linkcode DesktopProcess}. */
export interface DesktopProcessOptions {
  /** Path of `setsid`. */
  setsid: string;
  /** Path of the program, from `resolveDesktopPrograms`. */
  path: string;
  args: string[];
  /** The complete environment (the parent's is not inherited). */
  env: Record<string, string>;
  /** Receives every output line, prefixed with the program name. */
  log?: (line: string) => void;
}

/** A program running in its own process group, with its output drained line by line. */
export class DesktopProcess {
  readonly pid: number;
  /** Resolves when the program exits. */
  readonly status: Promise<Deno.CommandStatus>;
  #child: Deno.ChildProcess;
  #exited = false;
  #tail: string[] = [];
  #readers: ReadableStreamDefaultReader<string>[] = [];
  #drained: Promise<void>;
  #firstLine: Promise<string | null>;

  private constructor(
    readonly program: DesktopProgram,
    child: Deno.ChildProcess,
    log?: (line: string) => void,
  ) {
    this.#child = child;
    this.pid = child.pid;
    this.status = child.status.finally(() => this.#exited = true);
    let resolveFirst: (line: string | null) => void = () => {};
    let waitingForFirst = true;
    this.#firstLine = new Promise((resolve) => resolveFirst = resolve);
    const onLine = (line: string, fromStdout: boolean) => {
      if (fromStdout && waitingForFirst) {
        waitingForFirst = false;
        resolveFirst(line);
        return;
      }
      this.#tail.push(line);
      if (this.#tail.length > TAIL_LINES) this.#tail.shift();
      log?.(`[${program.name}] ${line}`);
    };
    this.#drained = Promise.all([
      this.#drain(child.stdout, (line) => onLine(line, true)),
      this.#drain(child.stderr, (line) => onLine(line, false)),
    ]).then(() => resolveFirst(null));
  }

  /**
   * Starts `options.path` in a new session (pid = process group id).
   *
   * @throws {DriverError} `display_unavailable` when the program cannot be executed.
   */
  static spawn(program: DesktopProgram, options: DesktopProcessOptions): DesktopProcess {
    try {
      const child = new Deno.Command(options.setsid, {
        args: [options.path, ...options.args],
        env: options.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      return new DesktopProcess(program, child, options.log);
    } catch (error) {
      throw new DriverError("display_unavailable", `Cannot run "${program.name}": ${String(error)}`, {
        hint: `install the Debian package "${program.debianPackage}" (sh scripts/setup.sh)`,
      }, { cause: error });
    }
  }

  /** True once the program has exited. */
  get exited(): boolean {
    return this.#exited;
  }

  /** Lets the Deno process exit while this program runs (see `Deno.ChildProcess.unref`). */
  unref(): void {
    this.#child.unref();
  }

  /** The last lines the program printed, for error messages. */
  outputTail(): string {
    return this.#tail.join("\n");
  }

  /**
   * The first line on the program's stdout (Xvfb's `-displayfd 1`, dbus-daemon's
   * `--print-address=1`).
   *
   * @throws {DriverError} `display_unavailable` when the program exits or stays silent for `timeoutMs`.
   */
  async firstLine(timeoutMs: number, signal?: AbortSignal): Promise<string> {
    const line = await withTimeout(this.#firstLine, timeoutMs, signal, () => this.failure("printed nothing"));
    if (line === null) throw this.failure("exited before printing its address");
    return line.trim();
  }

  /** A `display_unavailable` error that names the program, its package and its last output. */
  failure(what: string): DriverError {
    const tail = this.outputTail();
    return new DriverError(
      "display_unavailable",
      `${this.program.name} ${what}${tail === "" ? "" : `: ${tail.split("\n").slice(-5).join(" | ")}`}`,
      { hint: `check the "${this.program.debianPackage}" package (sh scripts/setup.sh)`, output: tail },
    );
  }

  /**
   * Sends `signal` to the whole process group, which may outlive its leader; never
   * throws. The group id cannot be reused while any member is alive.
   */
  kill(signal: Deno.Signal): void {
    try {
      Deno.kill(-this.pid, signal);
    } catch {
      // The group is empty.
    }
  }

  /**
   * SIGTERM to the group, SIGKILL to whatever is left after `graceMs`, then waits for
   * the group to empty and the pipes to close.
   */
  async terminate(graceMs: number): Promise<void> {
    this.kill("SIGTERM");
    const deadline = performance.now() + graceMs;
    const timer = setTimeout(() => this.kill("SIGKILL"), graceMs);
    try {
      await this.status;
      while (processGroupMembers(this.pid).length > 0 && performance.now() < deadline) await sleep(10);
    } finally {
      clearTimeout(timer);
    }
    for (let i = 0; i < 50 && processGroupMembers(this.pid).length > 0; i++) {
      this.kill("SIGKILL");
      await sleep(10);
    }
    // A grandchild that left the group may still hold the pipes open: stop reading.
    const late = setTimeout(() => this.#readers.forEach((r) => r.cancel().catch(() => {})), 200);
    await this.#drained;
    clearTimeout(late);
  }

  async #drain(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
    const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
    this.#readers.push(reader);
    let pending = "";
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += value;
        let newline: number;
        while ((newline = pending.indexOf("\n")) >= 0) {
          onLine(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
        }
      }
    } catch {
      // Cancelled.
    } finally {
      if (pending !== "") onLine(pending);
      reader.releaseLock();
    }
  }
}

/**
 * Resolves with `promise`, or rejects with `onTimeout()` after `timeoutMs`, or with
 * an `aborted` DriverError when `signal` aborts. Clears its timer either way.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => finish(() => reject(abortedError()));
    const timer = setTimeout(() => finish(() => reject(onTimeout())), timeoutMs);
    function finish(settle: () => void) {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      settle();
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort);
    promise.then((value) => finish(() => resolve(value)), (error) => finish(() => reject(error)));
  });
}

/** The error start-up throws when its signal aborts. */
export function abortedError(): DriverError {
  return new DriverError("aborted", "Embedded desktop start-up was aborted");
}

/**
 * Calls `check` every `intervalMs` until it returns true. Gives up with `failed()` as
 * soon as it returns an error (the program died), or with `onTimeout()`.
 */
export async function pollUntil(
  check: () => Promise<boolean>,
  options: {
    timeoutMs: number;
    intervalMs: number;
    signal?: AbortSignal;
    failed: () => Error | null;
    onTimeout: () => Error;
  },
): Promise<void> {
  const deadline = performance.now() + options.timeoutMs;
  while (true) {
    if (options.signal?.aborted) throw abortedError();
    if (await check()) return;
    const failure = options.failed();
    if (failure !== null) throw failure;
    if (performance.now() > deadline) throw options.onTimeout();
    await sleep(options.intervalMs);
  }
}

/** Pids of the live (not zombie) processes in process group `pgid`, from /proc. */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // Fields after the parenthesised command: state ppid pgrp session ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") members.push(Number(entry.name));
    } catch {
      // Exited while we looked.
    }
  }
  return members;
}

/** Runs a short command and returns whether it succeeded and what it printed. */
export async function runQuiet(
  path: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ success: boolean; stdout: string }> {
  const output = await new Deno.Command(path, { args, env, clearEnv: true, stdin: "null" }).output();
  return { success: output.success, stdout: new TextDecoder().decode(output.stdout) };
}
