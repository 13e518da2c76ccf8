/**
 * The daemon's serving side of the CLI: `serve`, and `mcp --socket` (stdio MCP proxied to a
 * daemon). The client commands (call, status, stop) are in cli_daemon_client.ts and load none
 * of this.
 *
 * @module
 */
import type { ToolRegistry } from "../../kernel/registry.ts";
import type { LocalSockets } from "../../ports/system.ts";
import { VERSION } from "../../version.ts";
import type { ParsedArgs } from "./args.ts";
import { fail, socketPath, withDaemon } from "./daemon_client.ts";
import { serveDaemon } from "../daemon/server.ts";
import { serveMcpStdio } from "../mcp/stdio.ts";

/** Extra servers `serve` may start next to the socket (the network listener). */
export type ServeExtras = (
  registry: ToolRegistry,
) => Promise<{ describe: string; close(): Promise<void> } | null>;

/** `serve`: runs until SIGINT, SIGTERM or a `stop`. */
export async function serveCommand(
  registry: ToolRegistry,
  args: ParsedArgs,
  extras: ServeExtras,
  sockets: LocalSockets,
): Promise<number> {
  let daemon;
  try {
    daemon = await serveDaemon(registry, { socketPath: socketPath(args, sockets), sockets });
  } catch (error) {
    return fail(error);
  }
  let network: Awaited<ReturnType<ServeExtras>> = null;
  try {
    network = await extras(registry);
  } catch (error) {
    await daemon.close();
    return fail(error);
  }
  console.error(
    `cua-driver ${VERSION}: daemon listening on ${daemon.socketPath}${
      network ? `; ${network.describe}` : ""
    }`,
  );
  const stop = () => void daemon.close();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  await daemon.finished;
  for (const signal of signals) Deno.removeSignalListener(signal, stop);
  await network?.close();
  return 0;
}

/** `mcp --socket`: stdio MCP proxied to the daemon; stdin EOF ends this connection's sessions there. */
export async function mcpProxyCommand(args: ParsedArgs, sockets: LocalSockets): Promise<number> {
  return await withDaemon(sockets, socketPath(args, sockets), async (client) => {
    await client.request({ method: "session_begin", client_kind: "mcp_proxy" });
    await serveMcpStdio(client);
    return 0;
  });
}
