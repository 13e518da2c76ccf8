/**
 * Tool definitions: one object per tool, written once for every OS.
 *
 * @module
 */
import type { z } from "../lib/schema/mod.ts";
import type { DriverError } from "../ports/errors.ts";
import type { Backend } from "../ports/backend.ts";
import type { HeldInput } from "./held_input.ts";
import type { ToolResult } from "./result.ts";
import type { RuntimeState } from "./runtime_state.ts";
import type { Session, TransportKind } from "./session.ts";

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
  | "browser"
  | "system";

/** How far a long call got, for the caller (MCP progress notifications). */
export interface ProgressReport {
  /** Work done so far; grows with each report. */
  progress?: number;
  /** Total work, when known. */
  total?: number;
  /** What is happening now ("installing tesseract-ocr", "turn 3 of 8"). */
  message?: string;
}

/** Everything a tool may use while it runs. Tools never import `ffi/` or an OS folder. */
export interface ToolContext {
  /** The OS back end. */
  readonly backend: Backend;
  /**
   * The channel pointers and keyboards with held keys and buttons recorded, to act through
   * (the back end's `input.pointer`/`keyboard` wrapped; see `src/kernel/held_input.ts`).
   */
  readonly input: HeldInput;
  /** Aborted when the caller goes away, cancels the call, or the call times out. */
  readonly signal: AbortSignal;
  /** Tells the caller how far a long call got; does nothing when the caller does not listen. */
  readonly progress: (report: ProgressReport) => void;
  /** The lifecycle session this call runs in. */
  readonly session: Session;
  /** Runtime-wide state: snapshots, screenshots, config, launched processes. */
  readonly state: RuntimeState;
  /** The connection lease this call came in on. */
  readonly lease: string;
  /** The transport of that connection. */
  readonly transport: TransportKind;
  /**
   * Re-entry into the registry for tools that run other tools (run_actions). Set by
   * `ToolRegistry.call` for top-level calls only: a nested call has none, so batches
   * never nest.
   */
  readonly dispatch?: ToolDispatch;
}

/** Running other tools from inside a tool, through the registry's normal dispatch path. */
export interface ToolDispatch {
  /**
   * Runs a tool as if the caller had called it (validation, session, authorization, and
   * the input lock each action takes itself), in this call's connection, session and
   * cancellation. Never throws: failures are `isError` results.
   */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /**
   * Checks a call against the tool's schema without running it.
   *
   * @throws {DriverError} `unknown_tool` or `invalid_arguments` (with `field`).
   */
  validate(name: string, args: Record<string, unknown>): void;
}

/** A tool: schema, metadata and behaviour. */
export interface ToolDefinition<I extends z.AnySchema = z.AnySchema, O extends z.AnySchema = z.AnySchema> {
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
  /**
   * False for tools the registry resolves no session for: those that never create or
   * touch one (health, session readers) and start_session, which starts (or revives) its own.
   */
  readonly sessionRequiring?: boolean;
  /**
   * False for tools that work without a desktop (diagnostics, configuration, sessions): a
   * server started before its display answers them, and refuses the rest with
   * `display_unavailable`.
   */
  readonly needsDesktop?: boolean;
  /** A compatibility tool another one replaces: callable, but listed only when asked for. */
  readonly legacy?: boolean;
  /**
   * True for tools that run other tools through `ctx.dispatch` (run_actions, replay_trajectory):
   * a registry serving such a tool must hold every tool (a one-shot CLI call loads them all).
   */
  readonly runsOtherTools?: boolean;
  /**
   * False for tools a transport calls for its own requests (the gRPC ComputerService's
   * screenshot and geometry reads): they run through the registry like any call, but are
   * not in tools/list.
   */
  readonly listed?: boolean;
  /**
   * The listed tool (and arguments) whose grant covers a call, for unlisted tools: bounded
   * manifests name listed tools only.
   */
  readonly authorizeAs?: (args: z.output<I>) => { tool: string; args: Record<string, unknown> };
  /**
   * For tools of a vocabulary whose error texts are a fixed set (a model vendor's): the one phrase
   * the caller reads for a failure. The registry then returns that phrase and the code only, never
   * the message or hint (which may quote what is on the screen).
   */
  readonly errorPhrase?: (error: DriverError) => string;
  /**
   * True for tools whose arguments and results are a vendor's exact shapes: the registry adds
   * nothing to them (no `return_state`).
   */
  readonly vendorShape?: boolean;
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
export function defineTool<I extends z.AnySchema, O extends z.AnySchema>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return definition;
}
