/**
 * The tool registry: the single dispatch path under every transport.
 *
 * `call()` strips reserved `_` keys, validates arguments, resolves the session,
 * authorizes, runs the tool, checks its output, and turns every failure into
 * the same structured envelope. Nothing a caller sends can crash it.
 *
 * @module
 */
import { z } from "../lib/schema/mod.ts";
import type { Backend } from "../ports/backend.ts";
import { abortedError, endCall, registerCall } from "./call_abort.ts";
import { observeCall } from "./call_observer.ts";
import { asDriverError, DriverError, errorText, toErrorEnvelope } from "../ports/errors.ts";
import { HeldInput } from "./held_input.ts";
import { type InputStopState, stopAllInput, type StopOutcome, stopsWithInput } from "./input_stop.ts";
import { ActionResultSchema } from "../engine/action_result.ts";
import { requestSuccessor, RETURN_STATES, takeReturnState } from "../engine/return_state.ts";
import type { ToolResult } from "./result.ts";
import type { RuntimeState } from "./runtime_state.ts";
import type { Session, TransportKind } from "./session.ts";
import type { AnyTool, ProgressReport, RiskClass, ToolContext, ToolDispatch } from "./tool.ts";
import {
  compactHints,
  compactInputSchema,
  compactOutputSchema,
  isListed,
  type ListingOptions,
} from "./tool_listing.ts";

/** Version of the tool contract this registry implements (contract.md header). */
export const CONTRACT_VERSION = "0.7.0";
/** Versions of the tools/list shape and capability vocabulary. */
export const TOOLS_LIST_SCHEMA_VERSION = "1";
export const CAPABILITY_VERSION = "1";

/** JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** The failure envelope every full outputSchema admits beside the success shape. */
export const ERROR_ENVELOPE_SCHEMA: JsonSchema = {
  type: "object",
  additionalProperties: true,
  anyOf: [{ required: ["refusal"] }, { required: ["status"] }, { required: ["code"] }],
};

/** A tools/list entry, transport-neutral. */
export interface ToolListing {
  name: string;
  /** Full listing only (the compact one leaves it out: the name says it). */
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /**
   * MCP hints; the compact listing leaves out those equal to MCP's defaults (false, true, false, true),
   * and the whole object when none is left.
   */
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /** Capability names (full listing only: describe, manifest). */
  capabilities?: string[];
  /** `operation_sensitive` (r2 and r3) in the full listing only. */
  risk: {
    class: RiskClass;
    operation_sensitive?: boolean;
  };
}

/** Who is calling: the transport connection (lease) and how to cancel. */
export interface CallOptions {
  lease: string;
  transport: TransportKind;
  signal?: AbortSignal;
  /** Abort the call after this many milliseconds. */
  timeoutMs?: number;
  /** Hears the tool's progress reports (MCP progress notifications). */
  onProgress?: (report: ProgressReport) => void;
  /**
   * Session label for calls whose arguments name none. Set only for calls a tool makes
   * through `ctx.dispatch`, which also marks them nested (they get no `dispatch` of their own).
   */
  inheritedSession?: { label: string | null };
}

/**
 * What a transport needs: the tool listing and the dispatch. The in-process
 * registry is one; a daemon client proxying to a registry elsewhere is another.
 */
export interface ToolHost {
  /** The tools/list profile, when the host knows it (a vocabulary profile changes the MCP instructions). */
  readonly profile?: string;
  list(): ToolListing[] | Promise<ToolListing[]>;
  call(name: string, args: unknown, options: CallOptions): Promise<ToolResult>;
}

/** Decides whether a call may run; throws (or rejects with) `permission_denied` otherwise. */
export type Authorizer = (
  tool: AnyTool,
  args: Record<string, unknown>,
  session: Session,
) => void | Promise<void>;

/** Allows every tool that has a risk class (unclassified tools never register). */
export const allowClassified: Authorizer = () => {};

/** Ordered, immutable collection of tools and their tools/list entries. Needs no OS. */
export class ToolCatalog {
  readonly #tools = new Map<string, AnyTool>();
  readonly #listings = new Map<string, ToolListing>();
  readonly #full = new Map<string, ToolListing>();
  /** Which tools {@linkcode list} shows. */
  readonly listingOptions: ListingOptions;

  constructor(tools: readonly AnyTool[], listingOptions: ListingOptions = {}) {
    for (const tool of tools) {
      if (this.#tools.has(tool.name)) throw new TypeError(`Tool "${tool.name}" is registered twice`);
      this.#tools.set(tool.name, tool);
    }
    this.listingOptions = listingOptions;
  }

  /** The tools/list profile. */
  get profile(): string {
    return this.listingOptions.profile ?? "all";
  }

  /** The same tools, listed under other options (profile, legacy tools). */
  withListing(listingOptions: ListingOptions): ToolCatalog {
    return new ToolCatalog([...this.#tools.values()], listingOptions);
  }

  /** Names of the listed tools (tools/list), in registration order. */
  get names(): string[] {
    return [...this.#tools.values()].filter((tool) => tool.listed !== false).map((tool) => tool.name);
  }

  /** A tool by name. */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** tools/list entries in registration order: the listed tools (profile, legacy), compact schemas. */
  list(): ToolListing[] {
    return this.names.filter((name) => isListed(this.#tools.get(name)!, this.listingOptions))
      .map((name) => this.listing(name)!);
  }

  /** One tools/list entry (compact schemas), computed once; listed or not. */
  listing(name: string): ToolListing | undefined {
    return this.#entry(name, this.#listings, true);
  }

  /** One tool's entry with its full input and output schemas (describe, manifest). */
  fullListing(name: string): ToolListing | undefined {
    return this.#entry(name, this.#full, false);
  }

  #entry(name: string, cache: Map<string, ToolListing>, compact: boolean): ToolListing | undefined {
    const cached = cache.get(name);
    if (cached) return cached;
    const tool = this.#tools.get(name);
    if (!tool) return undefined;
    const input = jsonSchema(tool.input, "input");
    if (returnsState(tool)) {
      (input.properties as Record<string, unknown>).return_state = RETURN_STATE_SCHEMA;
    }
    const entry: ToolListing = {
      name: tool.name,
      ...(compact ? {} : { title: tool.title }),
      description: tool.description,
      inputSchema: compact ? compactInputSchema(input) : input,
      annotations: compact ? undefined : {
        readOnlyHint: tool.hints.readOnly,
        destructiveHint: tool.hints.destructive,
        idempotentHint: tool.hints.idempotent,
        openWorldHint: tool.hints.openWorld,
      },
      risk: compact
        ? { class: tool.risk }
        : { class: tool.risk, operation_sensitive: tool.risk === "r2" || tool.risk === "r3" },
    };
    if (compact) {
      const hints = compactHints(tool.hints);
      if (Object.keys(hints).length) entry.annotations = hints;
      else delete entry.annotations;
    }
    if (!compact) entry.capabilities = [...tool.capabilities];
    if (tool.output) {
      const success = jsonSchema(tool.output, "output");
      entry.outputSchema = compact
        ? compactOutputSchema(success)
        : { type: "object", anyOf: [success, ERROR_ENVELOPE_SCHEMA] };
    }
    cache.set(name, entry);
    return entry;
  }
}

/** The catalog plus the dispatch path, bound to a back end and runtime state. */
export class ToolRegistry extends ToolCatalog {
  /** What the core holds down across this back end's channels. */
  readonly #input: HeldInput;

  constructor(
    tools: readonly AnyTool[],
    readonly backend: Backend,
    readonly state: RuntimeState,
    readonly authorize: Authorizer = allowClassified,
    listingOptions: ListingOptions = {},
  ) {
    super(tools, listingOptions);
    this.#input = new HeldInput(backend.input);
  }

  /** Ends the sessions of a connection lease: the transport's connection closed. */
  async endLease(lease: string): Promise<void> {
    await this.state.sessions.endLease(lease);
  }

  /**
   * Stops input (the person's stop switch): acting calls are refused with `input_stopped` from
   * now on, the running ones are aborted, and every key and button the driver holds (in any
   * session, across calls too) is released. Observation keeps working.
   */
  stopInput(by: string): Promise<StopOutcome & { state: InputStopState }> {
    return stopAllInput(this.state, this.#input, by);
  }

  /** Lets acting calls run again (only a person does this: the live view or the CLI). */
  resumeInput(): { changed: boolean; state: InputStopState } {
    const changed = this.state.inputStop.resume();
    return { changed, state: this.state.inputStop.state };
  }

  /** The launcher's permission mode, for status replies. */
  get permissionMode(): string {
    return this.state.permissionMode;
  }

  /** The live sessions, for the daemon's sessions_list. */
  sessionSummaries(): {
    session: string | null;
    implicit: boolean;
    state: string;
    transport: string;
    idle_seconds: number;
  }[] {
    return this.state.sessions.all().map((s) => ({
      session: s.label,
      implicit: s.label === null,
      state: s.state,
      transport: s.transport,
      idle_seconds: Math.floor((Date.now() - s.lastUsedAt) / 1000),
    }));
  }

  /**
   * Runs one tool call. Never throws: every failure becomes an `isError` result
   * with a structured envelope.
   */
  async call(name: string, rawArgs: unknown, options: CallOptions): Promise<ToolResult> {
    try {
      return await this.#dispatch(name, rawArgs, options);
    } catch (error) {
      // A call its caller cancelled ends as `aborted`, whatever the abort reason was.
      const driverError = options.signal?.aborted && !(error instanceof DriverError)
        ? new DriverError("aborted", "The call was cancelled", {
          reason: String(options.signal.reason ?? ""),
        }, {
          cause: error,
        })
        : asDriverError(error);
      if (driverError.code === "internal_error") console.error(`cua-driver: ${name}:`, driverError.cause);
      const phrase = this.get(name)?.errorPhrase;
      return phrase ? phrasedFailure(driverError, phrase(driverError)) : failure(driverError);
    }
  }

  /** Finds a tool and validates its arguments (reserved `_` keys stripped). */
  #parse(name: string, rawArgs: unknown) {
    const tool = this.get(name);
    if (!tool) {
      throw new DriverError("unknown_tool", `Unknown tool "${name}"`, {
        tool: name,
        hint: suggest(name, this.names),
      });
    }
    const args = stripReserved(rawArgs, name);
    // Action tools take return_state beside their own arguments (see successor_state.ts).
    const returnState = returnsState(tool) ? takeReturnState(args) : "none";
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw invalidArguments(name, parsed.error);
    return { tool, args, parsed, returnState };
  }

  async #dispatch(name: string, rawArgs: unknown, options: CallOptions): Promise<ToolResult> {
    const { tool, args, parsed, returnState } = this.#parse(name, rawArgs);
    const label = typeof args.session === "string" ? args.session : options.inheritedSession?.label ?? null;
    // Session readers and diagnostics never create or touch a session (contract.md §4).
    const session = tool.sessionRequiring === false
      ? this.state.sessions.peek(options.lease, label) ?? detachedSession(options, label)
      : this.state.sessions.resolve(options.lease, options.transport, label);
    // An unlisted tool is authorized as the listed tool whose grant covers it.
    const grant = tool.authorizeAs?.(parsed.data);
    const granting = grant ? this.get(grant.tool) : undefined;
    if (grant && !granting) throw new TypeError(`Tool "${tool.name}" authorizes as unknown "${grant.tool}"`);
    await this.authorize(granting ?? tool, grant?.args ?? args, session);
    // While a person has stopped input, nothing that acts runs (observation still does).
    this.state.inputStop.check(tool);
    // A server started before its desktop connects on the first call that needs one.
    if (tool.needsDesktop !== false) await this.backend.ready?.();

    // The call stops when its caller goes, it times out, its session ends, or the driver aborts it
    // (an action's target app exited: call_abort.ts).
    const own = new AbortController();
    const signals = [
      options.signal,
      options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
      session.ending?.signal,
      own.signal,
    ].filter((s): s is AbortSignal => s !== undefined);
    const signal = AbortSignal.any(signals);
    // Nested calls share this call's connection, session and cancellation, and cannot nest again.
    const dispatch: ToolDispatch | undefined = options.inheritedSession ? undefined : {
      call: (nested, nestedArgs) =>
        this.call(nested, nestedArgs, {
          lease: options.lease,
          transport: options.transport,
          signal,
          inheritedSession: { label: session.label },
          onProgress: options.onProgress,
        }),
      validate: (nested, nestedArgs) => void this.#parse(nested, nestedArgs),
    };
    await this.state.prepare(tool.capabilities);
    const untrackStop = stopsWithInput(tool) ? this.state.inputStop.track(own) : null;
    const tracked = tool.sessionRequiring !== false;
    if (tracked) this.state.sessions.enter(session);
    let result: ToolResult;
    let callCtx: ToolContext | null = null;
    try {
      // Checked again now that a stop would abort it: a stop thrown since the first check refuses it.
      if (untrackStop) this.state.inputStop.check(tool);
      const onProgress = options.onProgress;
      const ctx: ToolContext = {
        backend: this.backend,
        input: this.#input,
        signal,
        progress: (report) => {
          try {
            onProgress?.(report);
          } catch {
            // A listener never fails the call.
          }
        },
        session,
        state: this.state,
        dispatch,
        lease: options.lease,
        transport: options.transport,
      };
      registerCall(ctx, own);
      requestSuccessor(ctx, returnState);
      callCtx = ctx;
      // Observers (the recorder) see every authorized call and its result.
      const call = { tool, args, ctx, nested: options.inheritedSession !== undefined };
      result = await observeCall(
        this.state.callObservers,
        call,
        async () => {
          const ran = await tool.run(ctx, parsed.data);
          // Loaded only by a call that asked for its successor state.
          return returnState === "none"
            ? ran
            : await (await import("../engine/successor_state.ts")).withSuccessor(ctx, ran);
        },
      );
    } catch (error) {
      // Browser tools refuse in their own shape (contract.md §2.2, shape 4): not isError.
      if (tool.group === "browser" && error instanceof DriverError && error.refused) {
        return browserRefusal(error);
      }
      // A call stopped by its signal may surface the signal's own reason (a transport's
      // cancel or deadline error): it was aborted, not a driver bug.
      if (signal.aborted && !(error instanceof DriverError)) throw abortedError(signal);
      throw error;
    } finally {
      untrackStop?.();
      if (callCtx) endCall(callCtx);
      if (tracked) await this.state.sessions.leave(session);
    }
    if (!result.isError && tool.output && result.structuredContent) {
      const check = tool.output.safeParse(result.structuredContent);
      if (!check.success) {
        throw new DriverError(
          "typed_output_mismatch",
          `Tool "${name}" produced output that does not match its schema`,
          {
            tool: name,
            detail: z.prettifyError(check.error),
          },
        );
      }
    }
    return result;
  }
}

/** The listed `return_state` parameter of action tools. */
const RETURN_STATE_SCHEMA: JsonSchema = {
  type: "string",
  enum: [...RETURN_STATES],
  description: 'After the action: "diff" (what changed in the target window since the snapshot it was ' +
    'aimed from, fresh tokens, windows it opened), "full" or "none" (default)',
  shared: "return_state",
};

/**
 * True for the tools that accept `return_state`: action tools in the driver's own shapes that aim
 * at windows (the browser tools answer with the page's state of their own).
 */
export function returnsState(tool: AnyTool): boolean {
  return tool.output === ActionResultSchema && tool.vendorShape !== true && tool.group !== "browser";
}

/** A session view for tools that must not create one. */
function detachedSession(options: CallOptions, label: string | null): Session {
  const now = Date.now();
  return {
    id: `detached:${options.lease}`,
    label,
    lease: options.lease,
    transport: options.transport,
    startedAt: now,
    lastUsedAt: now,
    state: "active",
    inFlight: 0,
  };
}

/** Builds the isError result for a failure. */
export function failure(error: DriverError): ToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: errorText(error) }],
    structuredContent: toErrorEnvelope(error),
  };
}

/**
 * The isError result of a tool whose error texts are a fixed set: the phrase as the text and the
 * message, and the code; nothing else of the error (its message and data may quote screen content).
 */
export function phrasedFailure(error: DriverError, phrase: string): ToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: phrase }],
    structuredContent: { status: error.refused ? "refused" : "failed", code: error.code, message: phrase },
  };
}

/**
 * The browser refusal shape: no isError, text `refused (<code>): <message>`, and
 * `{status: "refused", refusal: {code, message, detail?}}` (contract.md §2.2). The hint,
 * when there is one, follows as a second text part and in `detail.hint`.
 */
export function browserRefusal(error: DriverError): ToolResult {
  const detail = { ...error.data };
  const refusal: Record<string, unknown> = { code: error.code, message: error.message };
  if (Object.keys(detail).length) refusal.detail = detail;
  const text = `refused (${error.code}): ${error.message}`;
  const content: ToolResult["content"] = [{ type: "text", text }];
  if (error.data.hint) content.push({ type: "text", text: `hint: ${error.data.hint}` });
  return { content, structuredContent: { status: "refused", refusal } };
}

/** JSON Schema of a schema, without the `$schema` key MCP clients do not expect. */
export function jsonSchema(schema: z.AnySchema, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function stripReserved(rawArgs: unknown, tool: string): Record<string, unknown> {
  if (rawArgs === undefined || rawArgs === null) return {};
  if (typeof rawArgs !== "object" || Array.isArray(rawArgs)) {
    throw new DriverError("invalid_arguments", `Arguments for "${tool}" must be a JSON object`, {
      tool,
      field: "(root)",
      hint: `pass an object such as {}; ${schemaPointer(tool)}`,
    });
  }
  return Object.fromEntries(Object.entries(rawArgs).filter(([key]) => !key.startsWith("_")));
}

function invalidArguments(tool: string, error: z.SchemaError): DriverError {
  const issue = error.issues[0];
  const path = issue.path.length ? issue.path.join(".") : "(root)";
  let field = path;
  if (issue.code === "unrecognized_keys") field = (issue.keys ?? []).join(", ");
  return new DriverError("invalid_arguments", `Invalid arguments for "${tool}": ${field}: ${issue.message}`, {
    tool,
    field,
    detail: z.prettifyError(error),
    hint: schemaPointer(tool),
  });
}

/** Where a caller of any transport finds a tool's schema. */
function schemaPointer(tool: string): string {
  return `the inputSchema of "${tool}" in tools/list says what it takes (CLI: cua-driver describe ${tool})`;
}

/** Tool names close to `name` (a substring either way, or two edits away). */
export function closeNames(name: string, names: readonly string[]): string[] {
  return names.filter((n) => n.includes(name) || name.includes(n) || editDistance(n, name) <= 2);
}

function suggest(name: string, names: string[]): string {
  const close = closeNames(name, names);
  return close.length
    ? `did you mean ${close.map((n) => `"${n}"`).join(" or ")}?`
    : "call tools/list for the tool names";
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
