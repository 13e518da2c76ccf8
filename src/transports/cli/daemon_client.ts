/**
 * The daemon's client commands of the CLI: `call <tool> [json]`, `status` and `stop`. They
 * talk to a running daemon over its socket and load neither the registry nor any tool, MCP or
 * the server side (a `call` is a process start, a connect and one request).
 *
 * @module
 */
import type { ToolResult } from "../../kernel/result.ts";
import type { LocalSockets } from "../../ports/system.ts";
import type { ParsedArgs } from "./args.ts";
import { toolArguments } from "./args.ts";
import { DaemonClient } from "../daemon/client.ts";
import { defaultSocketPath, socketAnswers } from "../daemon/protocol.ts";

/** Prints a tool result the way the CLI does. */
export type ResultPrinter = (result: ToolResult, args: ParsedArgs) => Promise<void>;

/** The socket a command uses: `--socket PATH`, else the default. */
export function socketPath(args: ParsedArgs, sockets: LocalSockets): string {
  const value = args.flags.get("--socket");
  return typeof value === "string" ? value : defaultSocketPath(sockets);
}

/** Prints why a daemon command failed (with its hint) and returns its exit code, 1. */
export function fail(error: unknown): number {
  const e = error as Error & { data?: { hint?: string } };
  console.error(`cua-driver: ${e.message}${e.data?.hint ? `: ${e.data.hint}` : ""}`);
  return 1;
}

/** `call <tool> [json]` through the daemon. */
export async function callCommand(
  args: ParsedArgs,
  print: ResultPrinter,
  sockets: LocalSockets,
): Promise<number> {
  const [name, ...rest] = args.positionals;
  if (!name) {
    console.error("cua-driver: call needs a tool name: cua-driver call <tool> [json]");
    return 2;
  }
  let toolArgs: Record<string, unknown>;
  try {
    const stdin = rest.length === 1 && rest[0] === "-"
      ? await new Response(Deno.stdin.readable).text()
      : undefined;
    toolArgs = toolArguments(rest, stdin);
  } catch (error) {
    console.error(`cua-driver: ${(error as Error).message}`);
    return 2;
  }
  return await withDaemon(sockets, socketPath(args, sockets), async (client) => {
    const session = typeof toolArgs.session === "string" ? toolArgs.session : undefined;
    const response = await client.request({
      method: "call",
      name,
      args: toolArgs,
      session,
      client_kind: "cli",
    });
    if (!response.ok) {
      console.error(`cua-driver: ${response.error}`);
      return response.exit_code ?? 1;
    }
    const result = response.result as ToolResult;
    await print(result, args);
    return result.isError ? 1 : 0;
  });
}

/** `status`. */
export async function statusCommand(args: ParsedArgs, sockets: LocalSockets): Promise<number> {
  const path = socketPath(args, sockets);
  return await withDaemon(sockets, path, async (client) => {
    const response = await client.request({ method: "metadata" });
    const meta = response.result as Record<string, unknown>;
    console.log(
      `Cua Driver daemon is running\nsocket: ${path}\npid: ${meta.pid}\nversion: ${meta.driver_version}\n` +
        `permission mode: ${meta.permission_mode}` + (meta.network ? `\nnetwork: ${meta.network}` : "") +
        ((meta.input as { stopped?: boolean } | undefined)?.stopped
          ? "\ninput: stopped (cua-driver resume-input resumes it)"
          : ""),
    );
    return 0;
  });
}

/** `stop`: asks the daemon to shut down and waits up to 2 s for the socket to go. */
export async function stopCommand(args: ParsedArgs, sockets: LocalSockets): Promise<number> {
  const path = socketPath(args, sockets);
  const asked = await withDaemon(sockets, path, async (client) => {
    await client.request({ method: "shutdown" }).catch(() => {});
    return 0;
  });
  if (asked !== 0) return asked;
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    if (!(await socketAnswers(sockets, path))) {
      console.log(`cua-driver: stopped the daemon on ${path}`);
      return 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.error(`cua-driver: the daemon on ${path} did not stop within 2 s`);
  return 1;
}

/**
 * `stop-input` and `resume-input`: the person's stop switch on a running daemon. Stopping
 * cancels the running action, releases every held key and button and refuses every later
 * acting call with `input_stopped` until `resume-input` (or the live view's Resume).
 */
export async function inputSwitchCommand(
  args: ParsedArgs,
  sockets: LocalSockets,
  action: "stop" | "resume",
): Promise<number> {
  const path = socketPath(args, sockets);
  return await withDaemon(sockets, path, async (client) => {
    const response = await client.request({ method: action === "stop" ? "input_stop" : "input_resume" });
    if (!response.ok) {
      console.error(`cua-driver: ${response.error}`);
      return response.exit_code ?? 1;
    }
    const result = response.result as { changed: boolean; aborted?: number };
    if (action === "stop") {
      console.log(
        `cua-driver: input ${result.changed ? "stopped" : "was already stopped"}` +
          ` (${result.aborted ?? 0} running action(s) cancelled, held keys and buttons released);` +
          ` resume with: cua-driver resume-input`,
      );
    } else {
      console.log(`cua-driver: input ${result.changed ? "resumed" : "was not stopped"}`);
    }
    return 0;
  });
}

/**
 * Connects to the daemon on `path` and runs `body` with the client, closed afterwards. A
 * daemon that cannot be reached prints why and gives exit code 1.
 */
export async function withDaemon(
  sockets: LocalSockets,
  path: string,
  body: (client: DaemonClient) => Promise<number>,
): Promise<number> {
  let client: DaemonClient;
  try {
    client = await DaemonClient.connect(sockets, path);
  } catch (error) {
    return fail(error);
  }
  try {
    return await body(client);
  } finally {
    client.close();
  }
}
