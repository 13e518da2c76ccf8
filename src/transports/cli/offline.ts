/**
 * The command line's offline commands, loaded only when one runs: the `--help` text,
 * `list-tools`'s summaries, `describe` and `manifest`. A tool call never loads them.
 *
 * @module
 */
import type { ToolCatalog } from "../../kernel/registry.ts";
import { CORE_TOOLS } from "../../kernel/tool_listing.ts";
import { VERSION } from "../../version.ts";
import { PERMISSIONS_SUBCOMMANDS } from "./permissions.ts";

/** The `--help` text. Every command and flag listed here exists. */
export function helpText(): string {
  return `cua-driver ${VERSION} — desktop driver for computer-use agents
Usage: cua-driver [OPTIONS] [COMMAND] [ARGS]

Commands:
  mcp [--socket [PATH]]   Serve MCP (protocol 2025-06-18 or 2025-11-25) on stdin/stdout (the default when stdin
                          is not a terminal); with --socket, proxy to a running daemon instead of owning the desktop
  serve [--socket PATH]   Run the daemon: one runtime behind a Unix socket (default ~/.cache/cua-driver/
                          cua-driver.sock, mode 0600). With CUA_DRIVER_RS_MCP_HTTP_PORT (and
                          CUA_DRIVER_RS_MCP_HTTP_TOKEN) also MCP at /mcp, gRPC cua.env.v1 and the live
                          view at /view (the URL with its token is printed on stderr) on that port
  osworld-server [--port N] [--host H] [--files-root DIR]
                          Serve OSWorld's guest HTTP API (default 127.0.0.1:5000; CUA_DRIVER_OSWORLD_TOKEN, a
                          bearer token, is required): /screenshot, /accessibility, /execute and /run_python (a
                          pyautogui subset, parsed, never run by Python), /computer_13, /screen_size, /platform,
                          /start_recording, /end_recording; with --files-root, /file and /setup/upload in DIR
  call <tool> [JSON]      Run one tool through the daemon (exits 1 when the daemon is not running)
  status | stop           Show or stop the daemon
  stop-input | resume-input
                          The person's stop switch on a running daemon: cancel the running action, release
                          every held key and button and refuse all later input (input_stopped) until resumed
  report DIR [--out FILE] A recording folder (start_recording's output_dir) as one self-contained HTML file
                          (default DIR/report.html): every turn with its screenshots, click and tree changes
  permissions [status|grant]
                          The OS grants the driver needs, each with its remedy (exits 1 when one is missing);
                          grant first raises the system prompts for the missing ones (macOS Accessibility and
                          Screen Recording), which no tool call may do
  demo [--app CMD]        Start the desktop, launch an app (default gtk3-widget-factory), observe it, act on it, print what it saw
  list-tools              One line per tool: name and summary
  describe <tool>         A tool's description and JSON input schema
  manifest [--pretty]     Machine-readable JSON: version, commands, tools
  <tool> [JSON | --key value ...]
                          Run one tool in-process (the same path as MCP tools/call) and print its
                          structured result; '-' reads the JSON arguments from stdin. Exits 1 on a tool error.

Options:
  --desktop auto|embedded|system
                          auto (default): use $DISPLAY, or start a private desktop (Xvfb 1920x1080x24,
                          openbox, session D-Bus, AT-SPI bus) when DISPLAY is unset. Env: CUA_DRIVER_DESKTOP
  --permission-mode standard|bounded|unrestricted
                          Fixed for the life of the process (default standard). Env: CUA_DRIVER_PERMISSION_MODE.
                          unrestricted also needs --dangerously-bypass-approvals; bounded needs a manifest
  --capability-manifest PATH --approve-capability-manifest
                          The bounded-mode ceiling: allowed tools, apps, files, desktop (YAML or JSON)
  --grant existing-profile
                          Standard mode: allow attaching to an existing browser profile
  --tools all|core|anthropic|openai
                          Which tools tools/list (and list-tools) shows: all (default) or the ${CORE_TOOLS.length} most
                          agents need (unlisted tools can still be called); anthropic serves instead exactly the
                          members of Anthropic's computer_toolset_20260801, openai OpenAI's computer tool (an
                          action batch). Env: CUA_DRIVER_TOOLS
  --legacy-tools          Also list the compatibility tools (page, escalate_session, get_session_state).
                          Env: CUA_DRIVER_LEGACY_TOOLS=1
  --socket PATH           The daemon socket for serve, call, status, stop and mcp --socket
  --screenshot-out-file PATH
                          For a tool that returns an image: write the first image to PATH
  --full                  Print the whole MCP result (content parts with base64 images) as JSON
  -h, --help              This help
  -V, --version           Print the version

Examples:
  cua-driver list_windows
  cua-driver get_window_state --pid 4242 --window_id 6291459 --screenshot-out-file /tmp/w.png
  cua-driver get_desktop_state '{"screenshot_out_file": "/tmp/desktop.png"}'
  cua-driver mcp
`;
}

/**
 * The `describe` command: prints a tool's description and schemas.
 *
 * @returns false (after printing the error) when no tool has that name.
 */
export async function describe(catalog: ToolCatalog, name: string | undefined): Promise<boolean> {
  const tool = name ? catalog.fullListing(name) : undefined;
  if (!tool) {
    const { closeNames } = await import("../../kernel/registry.ts");
    const close = name ? closeNames(name, catalog.names) : [];
    console.error(
      close.length
        ? `cua-driver: unknown tool "${name}": did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`
        : `cua-driver: unknown tool ${
          name ? `"${name}"` : "(none given)"
        }. Run "cua-driver list-tools" for the names`,
    );
    return false;
  }
  console.log(
    `name: ${tool.name}\n\ndescription:\n${tool.description}\n\ninput_schema:\n${
      JSON.stringify(tool.inputSchema, null, 2)
    }`,
  );
  if (tool.outputSchema) console.log(`\noutput_schema:\n${JSON.stringify(tool.outputSchema, null, 2)}`);
  return true;
}

/** The `manifest` command's JSON. */
export function manifest(
  catalog: ToolCatalog,
  about: { contractVersion: string; launcher: string },
): Record<string, unknown> {
  return {
    schema_version: "1",
    binary_version: VERSION,
    contract_version: about.contractVersion,
    binary_path: about.launcher,
    mcp_invocation: { command: about.launcher, args: ["mcp"] },
    subcommands: [
      { name: "mcp", description: "Serve MCP on stdio", args: [{ name: "--desktop", type: "string" }] },
      {
        name: "demo",
        description: "Observe and act on a real app",
        args: [{ name: "--app", type: "string" }],
      },
      {
        name: "osworld-server",
        description: "Serve OSWorld's guest HTTP API (bearer token in CUA_DRIVER_OSWORLD_TOKEN)",
        args: [
          { name: "--port", type: "string" },
          { name: "--host", type: "string" },
          { name: "--files-root", type: "string" },
        ],
      },
      { name: "list-tools", description: "List tools", args: [] },
      {
        name: "describe",
        description: "Describe a tool",
        args: [{ name: "tool", type: "positional-string" }],
      },
      { name: "manifest", description: "This manifest", args: [{ name: "--pretty", type: "flag" }] },
      {
        name: "permissions",
        description: "Report the OS grants; grant raises the system prompts for missing ones",
        args: [{ name: "subcommand", type: "positional-string", values: [...PERMISSIONS_SUBCOMMANDS] }],
      },
      {
        name: "<tool>",
        description: "Run a tool in-process",
        args: [{ name: "arguments", type: "positional-json" }],
      },
    ],
    tools: catalog.names.map((name) => catalog.fullListing(name)!).map((t) => ({
      name: t.name,
      description: t.description,
      annotations: t.annotations,
      risk: t.risk,
      capabilities: t.capabilities,
      input_schema: t.inputSchema,
      ...(t.outputSchema ? { output_schema: t.outputSchema } : {}),
    })),
  };
}

/** Abbreviations whose period ends no sentence. */
const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|cf)\.$/i;

/**
 * The first sentence of a description, for list-tools: up to the first period that is
 * followed by a space (or the end), outside brackets, parentheses and quotes, and not an
 * abbreviation's ("e.g."), so a summary is never cut mid-phrase.
 */
export function firstSentence(text: string): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (
      c === "." && depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1])) &&
      !ABBREVIATIONS.test(text.slice(0, i + 1))
    ) {
      return text.slice(0, i + 1);
    }
  }
  return text;
}
