/**
 * `cua-driver permissions [status|grant]`: the OS grants the driver needs, for a person
 * at the machine. `status` runs check_permissions; `grant` first raises the OS prompts
 * for the missing grants (macOS Accessibility and Screen Recording), which no tool call
 * may do (check_permissions refuses `prompt: true` with
 * os_permission_prompt_requires_trusted_host), then reports the checks.
 *
 * @module
 */
import type { ToolRegistry } from "../../kernel/registry.ts";
import type { ToolResult } from "../../kernel/result.ts";

/** What the command needs from a running driver. */
export interface PermissionsRuntime {
  readonly registry: ToolRegistry;
  /** Raises the OS prompts for the missing grants; null where the OS has none. */
  requestPermissions(): Promise<{ prompted: string[]; notes?: string[] } | null>;
}

/** The subcommands, for help and the manifest. */
export const PERMISSIONS_SUBCOMMANDS = ["status", "grant"] as const;

/** The usage error for a subcommand this command does not have; null for status and grant. */
export function permissionsUsageError(sub: string): string | null {
  return (PERMISSIONS_SUBCOMMANDS as readonly string[]).includes(sub)
    ? null
    : `permissions takes status or grant, not "${sub}"`;
}

/**
 * Runs `permissions status` (or `grant` when `grant` is true: the OS prompts first) and
 * returns the exit code: 0 when every check passes, 1 when one is missing or
 * check_permissions failed.
 */
export async function permissionsCommand(
  runtime: PermissionsRuntime,
  grant: boolean,
  print: (text: string) => void,
): Promise<number> {
  if (grant) print(grantSummary(await runtime.requestPermissions()));
  const result = await runtime.registry.call("check_permissions", {}, {
    lease: `cli-${crypto.randomUUID()}`,
    transport: "cli",
  });
  print(text(result));
  if (result.isError) return 1;
  return result.structuredContent?.ok === true ? 0 : 1;
}

function grantSummary(prompts: { prompted: string[]; notes?: string[] } | null): string {
  if (prompts === null) {
    return "This OS has no permission prompts to raise: the checks below name the remedy for anything missing.";
  }
  const notes = prompts.notes ?? [];
  if (prompts.prompted.length === 0 && notes.length === 0) {
    return "Every grant that has a system prompt is already given.";
  }
  const raised = prompts.prompted.length
    ? [
      `Raised the system prompt for: ${prompts.prompted.join(", ")}. Allow the driver (or the app that ` +
      "started it) in the System Settings pane it opens, then restart the driver: a grant applies to " +
      "processes started after it.",
    ]
    : [];
  return [...raised, ...notes].join("\n");
}

function text(result: ToolResult): string {
  return result.content.flatMap((part) => part.type === "text" ? [part.text] : []).join("\n");
}
