/**
 * Drives `tests/fixtures/grpc_client.mjs`, a @grpc/grpc-js client in its own Node
 * process, one JSON command per line.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("../fixtures/grpc_client.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** One answer of the client. */
export interface GrpcAnswer {
  id: number;
  ok: boolean;
  // deno-lint-ignore no-explicit-any
  response?: any;
  code?: number;
  message?: string;
  errorInfo?: { reason: string; message: string; feature: string; metadata: Record<string, string> } | null;
}

/** Options of one call. */
export interface CallOptions {
  /** Overrides the bearer token ("" sends none). */
  token?: string;
  deadlineMs?: number;
}

/** A running client process. */
export interface GrpcNodeClient extends AsyncDisposable {
  readonly pid: number;
  call(
    service: "ComputerService" | "DriverService",
    method: string,
    request?: unknown,
    options?: CallOptions,
  ): Promise<GrpcAnswer>;
  /** Sends a call without waiting for its answer. */
  send(service: string, method: string, request?: unknown): void;
  kill(signal: Deno.Signal): void;
  close(): Promise<void>;
}

/** True when Node and @grpc/grpc-js are installed (npm install of the devDependencies). */
export function hasGrpcJs(): boolean {
  try {
    return Deno.statSync(`${ROOT}/node_modules/@grpc/grpc-js/package.json`).isFile;
  } catch {
    return false;
  }
}

/** Starts the client against `host:port` with a default token. */
export async function startGrpcNodeClient(target: string, token: string): Promise<GrpcNodeClient> {
  const child = new Deno.Command("node", {
    args: [SCRIPT, target, token],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const waiting = new Map<number, (answer: GrpcAnswer) => void>();
  let nextId = 1;
  let stderr = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr += chunk) }),
  ).catch(() => {});
  let ready!: () => void;
  const readyPromise = new Promise<void>((resolve) => ready = resolve);
  const reading = (async () => {
    let buffer = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (message.ready) {
          ready();
          continue;
        }
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    }
  })().catch(() => {});
  const status = child.status;
  await Promise.race([
    readyPromise,
    status.then((s) => {
      throw new Error(`grpc client exited ${s.code}: ${stderr}`);
    }),
  ]);
  const write = (command: Record<string, unknown>) =>
    writer.write(new TextEncoder().encode(JSON.stringify(command) + "\n")).catch(() => {});
  let closing: Promise<void> | null = null;
  const close = () =>
    closing ??= (async () => {
      await writer.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 3_000);
      await status;
      clearTimeout(timer);
      await reading;
      await stderrDone;
    })();
  return {
    pid: child.pid,
    call(service, method, request = {}, options = {}) {
      const id = nextId++;
      const answer = new Promise<GrpcAnswer>((resolve) => waiting.set(id, resolve));
      write({ id, service, method, request, ...options });
      return answer;
    },
    send(service, method, request = {}) {
      write({ id: nextId++, service, method, request });
    },
    kill(signal) {
      child.kill(signal);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
