/**
 * The command line: offline commands (help, list-tools, describe, manifest; their code is
 * cli_offline.ts, loaded when one runs), the MCP stdio server, and any tool by name through the
 * same registry path.
 *
 * @module
 */
import { asDriverError } from "../../ports/errors.ts";
import type { PermissionConfig } from "../../features/permissions/config.ts";
import type { ToolCatalog, ToolRegistry } from "../../kernel/registry.ts";
import type { ToolResult } from "../../kernel/result.ts";
import type { AnyTool } from "../../kernel/tool.ts";
import {
  isVocabularyProfile,
  type ListingOptions,
  TOOL_PROFILES,
  type ToolProfile,
  type VocabularyProfile,
} from "../../kernel/tool_listing.ts";
import type { LocalSockets } from "../../ports/system.ts";
import { VERSION } from "../../version.ts";
import { parseArgs, type ParsedArgs, toolArguments } from "./args.ts";
import type { ServeExtras } from "./daemon.ts";
import type { PermissionsRuntime } from "./permissions.ts";

/**
 * What the CLI needs from the composition root. Everything heavy is loaded on demand: a
 * one-shot tool call loads that tool (and what it imports), never the MCP server, the daemon,
 * gRPC or the other tools.
 */
export interface CliHost {
  /** Every tool's name, known without loading any tool. */
  toolNames: readonly string[];
  /** Loads every tool into a catalog (list-tools, describe, manifest); a vocabulary profile's tools when named. */
  catalog(profile?: VocabularyProfile): Promise<ToolCatalog>;
  /** Loads the tools a vocabulary profile serves (`--tools anthropic`, `--tools openai`). */
  profileTools(profile: VocabularyProfile): Promise<AnyTool[]>;
  /** Loads one tool; undefined for an unknown name. */
  loadTool(name: string): Promise<AnyTool | undefined>;
  /**
   * Starts loading what {@linkcode CliHost.startRuntime} needs (the registry, the OS's back end, the
   * permission resolver) and returns at once: a one-shot call overlaps it with loading its tool.
   */
  preloadRuntime(): void;
  startRuntime(options: {
    desktop: DesktopChoice;
    permissions: PermissionConfig;
    waitForDisplay?: boolean;
    listing?: ListingOptions;
    /** The tools to serve; every tool when absent. */
    tools?: readonly AnyTool[];
    /** False for a one-shot call: no idle-session timer. */
    sweepSessions?: boolean;
    /** A one-shot call: the back end sets up only what the call uses. */
    oneShot?: boolean;
  }): Promise<{
    registry: ToolRegistry;
    /** Raises the OS permission prompts (`permissions grant`); null where the OS has none. */
    requestPermissions(): Promise<{ prompted: string[]; notes?: string[] } | null>;
    close(): Promise<void>;
  }>;
  runDemo(registry: ToolRegistry, args: ParsedArgs): Promise<number>;
  /** Servers `serve` starts beside the socket (the HTTP/gRPC listener when configured). */
  serveExtras: ServeExtras;
  /** The OS's local sockets (the daemon's endpoint), loaded on demand and without the rest of the OS code. */
  sockets(): Promise<LocalSockets>;
}

/** Desktop selection. */
export type DesktopChoice = "auto" | "embedded" | "system";

const EXIT = { ok: 0, toolError: 1, usage: 2 } as const;

/** Runs the CLI and returns the process exit code. */
export async function runCli(argv: readonly string[], host: CliHost): Promise<number> {
  const args = parseArgs(argv);
  if (args.flags.has("--version")) {
    console.log(`cua-driver ${VERSION}`);
    return EXIT.ok;
  }
  if (args.flags.has("--help")) {
    console.log((await import("./offline.ts")).helpText());
    return EXIT.ok;
  }
  const command = args.command ?? (Deno.stdin.isTerminal() ? null : "mcp");
  switch (command) {
    case null:
      console.error(
        `cua-driver ${VERSION}: no command. Run "cua-driver --help", or pipe MCP JSON-RPC into "cua-driver mcp".`,
      );
      return EXIT.ok;
    case "help":
      console.log((await import("./offline.ts")).helpText());
      return EXIT.ok;
    case "version":
      console.log(`cua-driver ${VERSION}`);
      return EXIT.ok;
    case "list-tools": {
      const listing = listingFromFlags(args);
      if (typeof listing === "string") return usage(listing);
      const vocabulary = isVocabularyProfile(listing.profile) ? listing.profile : undefined;
      const [catalog, { firstSentence }] = await Promise.all([
        host.catalog(vocabulary),
        import("./offline.ts"),
      ]);
      for (const tool of catalog.withListing(listing).list()) {
        console.log(`${tool.name}: ${firstSentence(tool.description)}`);
      }
      return EXIT.ok;
    }
    case "describe": {
      const [catalog, { describe }] = await Promise.all([host.catalog(), import("./offline.ts")]);
      return await describe(catalog, args.positionals[0]) ? EXIT.ok : EXIT.usage;
    }
    case "manifest": {
      const [catalog, { CONTRACT_VERSION }, { launcherPath }, { manifest }] = await Promise.all([
        host.catalog(),
        import("../../kernel/registry.ts"),
        import("../../kernel/build_info.ts"),
        import("./offline.ts"),
      ]);
      const json = manifest(catalog, { contractVersion: CONTRACT_VERSION, launcher: launcherPath() });
      console.log(JSON.stringify(json, null, args.flags.has("--pretty") ? 2 : undefined));
      return EXIT.ok;
    }
    case "mcp":
      if (args.flags.has("--socket")) {
        return await (await import("./daemon.ts")).mcpProxyCommand(args, await host.sockets());
      }
      return await withRuntime(args, host, async (registry) => {
        const { serveMcpStdio } = await import("../mcp/stdio.ts");
        await serveMcpStdio(registry, { onClose: (lease) => registry.endLease(lease) });
        return EXIT.ok;
      }, { waitForDisplay: true });
    case "serve":
      return await withRuntime(
        args,
        host,
        async (registry) =>
          (await import("./daemon.ts")).serveCommand(
            registry,
            args,
            host.serveExtras,
            await host.sockets(),
          ),
        { waitForDisplay: true },
      );
    case "osworld-server": {
      const { osworldCommand, osworldConfig } = await import("../osworld/command.ts");
      // Checked before the desktop starts: a usage error starts nothing.
      const config = osworldConfig(args.positionals, (name) => Deno.env.get(name));
      if (typeof config === "string") return usage(config);
      return await withRuntime(args, host, (registry) => osworldCommand(registry, config), {
        waitForDisplay: true,
      });
    }
    case "call":
      return await (await import("./daemon_client.ts")).callCommand(
        args,
        printResult,
        await host.sockets(),
      );
    case "status":
      return await (await import("./daemon_client.ts")).statusCommand(
        args,
        await host.sockets(),
      );
    case "stop":
      return await (await import("./daemon_client.ts")).stopCommand(args, await host.sockets());
    case "stop-input":
    case "resume-input":
      return await (await import("./daemon_client.ts")).inputSwitchCommand(
        args,
        await host.sockets(),
        command === "stop-input" ? "stop" : "resume",
      );
    case "report":
      return await reportCommand(args.positionals);
    case "demo":
      return await withRuntime(args, host, (registry) => host.runDemo(registry, args));
    case "permissions": {
      const sub = args.positionals[0] ?? "status";
      const { permissionsCommand, permissionsUsageError } = await import("./permissions.ts");
      const wrong = permissionsUsageError(sub);
      if (wrong) return usage(wrong);
      const tool = (await host.loadTool("check_permissions"))!;
      return await withRuntime(
        args,
        host,
        (_registry, runtime) => permissionsCommand(runtime, sub === "grant", console.log),
        { oneShot: { tools: [tool] } },
      );
    }
    default:
      if (!host.toolNames.includes(command)) {
        console.error(
          `cua-driver: unknown command or tool "${command}". Run "cua-driver --help" or "cua-driver list-tools".`,
        );
        return EXIT.usage;
      }
      return await runTool(command, args, host);
  }
}

/** `report DIR [--out FILE]`: a recording folder as one self-contained HTML file. */
async function reportCommand(positionals: string[]): Promise<number> {
  const rest = [...positionals];
  let out: string | null = null;
  const at = rest.findIndex((token) => token === "--out" || token.startsWith("--out="));
  if (at >= 0) {
    const token = rest[at];
    out = token.startsWith("--out=") ? token.slice(6) : rest[at + 1] ?? null;
    rest.splice(at, token.startsWith("--out=") ? 1 : 2);
    if (!out) return usage("report --out needs a file name");
  }
  if (rest.length !== 1) {
    return usage("report takes one recording folder: cua-driver report DIR [--out FILE]");
  }
  const dir = rest[0];
  const { buildReport } = await import("../../features/recording/report.ts");
  try {
    const report = await buildReport(dir);
    const path = out ?? `${dir.replace(/\/+$/, "")}/report.html`;
    await Deno.writeTextFile(path, report.html);
    console.log(`cua-driver: wrote ${path} (${report.turns.length} turn(s))`);
    return EXIT.ok;
  } catch (error) {
    const driverError = asDriverError(error);
    console.error(
      `cua-driver: ${driverError.message}${driverError.data.hint ? ` (${driverError.data.hint})` : ""}`,
    );
    return EXIT.toolError;
  }
}

async function runTool(name: string, args: ParsedArgs, host: CliHost): Promise<number> {
  let toolArgs: Record<string, unknown>;
  try {
    const needsStdin = args.positionals.length === 1 && args.positionals[0] === "-";
    toolArgs = toolArguments(
      args.positionals,
      needsStdin ? await new Response(Deno.stdin.readable).text() : undefined,
    );
  } catch (error) {
    console.error(`cua-driver: ${(error as Error).message}`);
    return EXIT.usage;
  }
  host.preloadRuntime();
  // Only this tool is loaded, unless it runs others (run_actions, replay_trajectory).
  const tool = (await host.loadTool(name))!;
  const tools = tool.runsOtherTools ? undefined : [tool];
  return await withRuntime(args, host, async (registry) => {
    const result = await registry.call(name, toolArgs, {
      lease: `cli-${crypto.randomUUID()}`,
      transport: "cli",
    });
    await printResult(result, args);
    return result.isError ? EXIT.toolError : EXIT.ok;
  }, { oneShot: { tools } });
}

async function printResult(result: ToolResult, args: ParsedArgs): Promise<void> {
  const outFile = args.flags.get("--screenshot-out-file");
  const image = result.content.find((part) => part.type === "image");
  if (typeof outFile === "string" && image?.type === "image") {
    const [{ fromBase64 }, { writeCallerFile }] = await Promise.all([
      import("../../kernel/result.ts"),
      import("../../kernel/safe_files.ts"),
    ]);
    try {
      await writeCallerFile(outFile, fromBase64(image.data), { field: "--screenshot-out-file" });
    } catch (error) {
      console.error(`cua-driver: ${(error as Error).message}`);
    }
  }
  if (args.flags.has("--full")) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const stream = result.isError ? console.error : console.log;
  if (result.structuredContent) {
    const structured: Record<string, unknown> = { ...result.structuredContent };
    if (image?.type === "image") {
      structured.image = typeof outFile === "string" ? { mime_type: image.mimeType, written_to: outFile } : {
        mime_type: image.mimeType,
        bytes: Math.floor(image.data.length * 3 / 4),
        note: "pass --screenshot-out-file PATH or --full to get it",
      };
    }
    stream(JSON.stringify(structured, null, 2));
  } else {
    for (const part of result.content) if (part.type === "text") stream(part.text);
  }
}

async function withRuntime(
  args: ParsedArgs,
  host: CliHost,
  body: (registry: ToolRegistry, runtime: PermissionsRuntime) => Promise<number>,
  options: {
    /** Servers: start without a reachable display and connect when one appears. */
    waitForDisplay?: boolean;
    /** A one-shot tool call: the tools it needs (every tool when undefined), and no idle-session sweep. */
    oneShot?: { tools: readonly AnyTool[] | undefined };
  } = {},
): Promise<number> {
  const desktop = args.flags.get("--desktop") ?? Deno.env.get("CUA_DRIVER_DESKTOP") ?? "auto";
  if (desktop !== "auto" && desktop !== "embedded" && desktop !== "system") {
    console.error(`cua-driver: --desktop must be auto, embedded or system, not "${desktop}"`);
    return EXIT.usage;
  }
  const listing = listingFromFlags(args);
  if (typeof listing === "string") return usage(listing);
  let permissions: PermissionConfig;
  try {
    permissions = await permissionsFromFlags(args);
  } catch (error) {
    console.error(`cua-driver: ${(error as Error).message}`);
    return EXIT.usage;
  }
  if (permissions.mode === "unrestricted") {
    console.error(
      "cua-driver: DANGER: permission mode unrestricted: every tool and resource is open to the agent",
    );
  }
  let runtime;
  try {
    runtime = await host.startRuntime({
      desktop,
      permissions,
      waitForDisplay: options.waitForDisplay ?? false,
      listing,
      tools: options.oneShot?.tools ??
        (isVocabularyProfile(listing.profile) ? await host.profileTools(listing.profile) : undefined),
      sweepSessions: !options.oneShot,
      oneShot: Boolean(options.oneShot),
    });
  } catch (error) {
    // A start-up failure speaks the same codes as a tool error (library_unavailable, display_unavailable).
    const failure = asDriverError(error);
    const message = failure.data.hint ? `${failure.message}: ${failure.data.hint}` : failure.message;
    console.error(`cua-driver: ${message}`);
    return EXIT.toolError;
  }
  try {
    return await body(runtime.registry, runtime);
  } finally {
    await runtime.close();
  }
}

/** The tools/list options of `--tools` and `--legacy-tools` (or their env), or a usage error. */
export function listingFromFlags(args: ParsedArgs): ListingOptions | string {
  const flag = args.flags.get("--tools");
  const profile = (typeof flag === "string" ? flag : undefined) ?? Deno.env.get("CUA_DRIVER_TOOLS") ?? "all";
  if (!(TOOL_PROFILES as readonly string[]).includes(profile)) {
    return `--tools must be ${TOOL_PROFILES.join(", ")}, not "${profile}"`;
  }
  const legacy = args.flags.has("--legacy-tools") || Deno.env.get("CUA_DRIVER_LEGACY_TOOLS") === "1";
  return { profile: profile as ToolProfile, legacy };
}

function usage(message: string): number {
  console.error(`cua-driver: ${message}`);
  return EXIT.usage;
}

/** The permission configuration the launcher's flags and environment ask for. */
export async function permissionsFromFlags(args: ParsedArgs): Promise<PermissionConfig> {
  const { resolvePermissions } = await import("../../features/permissions/config.ts");
  const value = (flag: string) => {
    const v = args.flags.get(flag);
    return typeof v === "string" ? v : undefined;
  };
  return await resolvePermissions({
    mode: value("--permission-mode"),
    dangerouslyBypass: args.flags.has("--dangerously-bypass-approvals"),
    manifestPath: value("--capability-manifest"),
    approveManifest: args.flags.has("--approve-capability-manifest"),
    grants: args.repeated.get("--grant"),
  });
}
