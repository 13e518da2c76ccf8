/**
 * The `osworld-server` command: `--port` (default 5000), `--host` (default 127.0.0.1) and
 * `--files-root DIR` (the folder /file and /setup/upload may use; none by default) from the
 * command's own arguments, the bearer token from `CUA_DRIVER_OSWORLD_TOKEN` (required, 32 to
 * 4096 characters), then the server until SIGINT or SIGTERM.
 *
 * @module
 */
import type { ToolHost } from "../../kernel/registry.ts";
import { checkBind, validateToken } from "../network/auth.ts";
import { startOsworldServer } from "./server.ts";

/** OSWorld's guest port. */
export const OSWORLD_PORT = 5000;

/** What `platform.system()` says on each OS. */
const PLATFORM: Record<string, string> = { linux: "Linux", darwin: "Darwin", windows: "Windows" };

/** Reads `--port N` and `--host H` from the command's arguments; a usage error is a string. */
export function osworldFlags(
  tokens: readonly string[],
): { port: number; host: string; filesRoot: string | null } | string {
  let port = OSWORLD_PORT, host = "127.0.0.1";
  let filesRoot: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const [name, inline] = token.split("=", 2);
    const value = inline ?? tokens[++i];
    if (name === "--port" && /^\d+$/.test(value ?? "") && Number(value) >= 1 && Number(value) <= 65535) {
      port = Number(value);
    } else if (name === "--host" && value) {
      host = value;
    } else if (name === "--files-root" && value?.startsWith("/")) {
      filesRoot = value;
    } else {
      return `osworld-server takes --port 1..65535, --host ADDRESS and --files-root /DIR, not "${token}"`;
    }
  }
  return { port, host, filesRoot };
}

/** A checked configuration of the server. */
export interface OsworldConfig {
  port: number;
  host: string;
  filesRoot: string | null;
  token: string;
}

/**
 * The server's configuration from its arguments and environment, checked before anything starts;
 * a usage error is a string.
 */
export function osworldConfig(
  tokens: readonly string[],
  env: (name: string) => string | undefined,
): OsworldConfig | string {
  const flags = osworldFlags(tokens);
  if (typeof flags === "string") return flags;
  const token = env("CUA_DRIVER_OSWORLD_TOKEN");
  if (token === undefined || token === "") {
    return "osworld-server needs a bearer token in CUA_DRIVER_OSWORLD_TOKEN (32 to 4096 characters)";
  }
  try {
    // The checks of every network token; its messages name the MCP variable, so only the gist is kept.
    validateToken(token);
    checkBind(flags.host, token);
  } catch (error) {
    return `CUA_DRIVER_OSWORLD_TOKEN: ${
      (error as Error).message.replace(/^CUA_DRIVER_RS_MCP_HTTP_TOKEN /, "")
    }`;
  }
  return { ...flags, token };
}

/** Runs the server over `host` until a signal; returns the exit code. */
export async function osworldCommand(host: ToolHost, config: OsworldConfig): Promise<number> {
  const server = startOsworldServer(host, { ...config, platform: PLATFORM[Deno.build.os] ?? Deno.build.os });
  console.error(`cua-driver: osworld-server listening on ${server.url}`);
  const stop = () => void server.close();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  await server.finished;
  for (const signal of signals) Deno.removeSignalListener(signal, stop);
  return 0;
}
