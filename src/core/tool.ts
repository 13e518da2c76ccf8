/**
 * Tool definitions: one object per tool, written once for every OS.
 *
 * @module
 */
import type { z } from "zod";
import type { Backend } from "../platform/types.ts";
import type { ToolResult } from "./result.ts";
import type { RuntimeState } from "./runtime_state.ts";
import type { Session } from "./session.ts";

/** MCP behaviour hints, in the reference's RO/DE/ID/OW terms (contract.md §1.0). */
export interface ToolHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/** Risk classes of the reference's authorization map (contract.md §1.0). */
export type RiskClass = "r0" | "r1" | "r2" | "r3";

/** Area a tool belongs to, used for grouping in `list-tools` and the manifest. */
export type ToolGroup =
  | "apps"
  | "windows"
  | "screen"
  | "accessibility"
  | "input"
  | "clipboard"
  | "session"
  | "system";

/** Everything a tool may use while it runs. Tools never import `ffi/` or an OS folder. */
export interface ToolContext {
  /** The OS back end. */
  readonly backend: Backend;
  /** Aborted when the caller goes away or the call times out. */
  readonly signal: AbortSignal;
  /** The lifecycle session this call runs in. */
  readonly session: Session;
  /** Runtime-wide state: snapshots, screenshots, config, launched processes. */
  readonly state: RuntimeState;
}

/** A tool: schema, metadata and behaviour. */
export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly group: ToolGroup;
  readonly input: I;
  /** Success shape of `structuredContent`; absent when the tool returns text only. */
  readonly output?: O;
  readonly hints: ToolHints;
  readonly risk: RiskClass;
  readonly capabilities: readonly string[];
  /** False for tools that never create or touch a session (health, session readers). */
  readonly sessionRequiring?: boolean;
  run(ctx: ToolContext, args: z.output<I>): Promise<ToolResult>;
}

/** A tool with its types erased, as the registry stores it. */
// deno-lint-ignore no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

/**
 * Pins a tool's generic types. An identity function, as in Playwright's `defineTool`.
 *
 * @example
 * ```ts
 * export default defineTool({ name: "get_screen_size", ... });
 * ```
 */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return definition;
}
