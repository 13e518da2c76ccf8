/**
 * Watching tool calls from outside the registry: a typed hook the registry runs
 * around every authorized call, so a recorder (or an auditor) sees each call and
 * its result without the registry knowing what it does with them.
 *
 * @module
 */
import { asDriverError, type DriverError, errorText, toErrorEnvelope } from "../ports/errors.ts";
import type { ToolResult } from "./result.ts";
import type { AnyTool, ToolContext } from "./tool.ts";

/** One authorized call about to run. */
export interface ObservedCall {
  readonly tool: AnyTool;
  /** The arguments as the caller sent them (reserved `_` keys stripped), already validated. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The context the tool runs with (back end, session, state, signal). */
  readonly ctx: ToolContext;
  /** True for a call another tool made through `ctx.dispatch` (run_actions, replay_trajectory). */
  readonly nested: boolean;
}

/** Told the result of an observed call once it finished (failures as their isError result). */
export type CallFinisher = (result: ToolResult) => void | Promise<void>;

/**
 * Something that watches calls. `before` runs after authorization and before the tool;
 * what it returns is called with the result. An observer that throws is ignored: it can
 * never fail or change a call.
 */
export interface CallObserver {
  before(call: ObservedCall): CallFinisher | null | Promise<CallFinisher | null>;
}

/**
 * Runs `run` between the observers' `before` and their finishers. The result (or the
 * error, rethrown unchanged) is what `run` produced.
 */
export async function observeCall(
  observers: Iterable<CallObserver>,
  call: ObservedCall,
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const finishers: CallFinisher[] = [];
  for (const observer of observers) {
    try {
      const finisher = await observer.before(call);
      if (finisher) finishers.push(finisher);
    } catch (error) {
      console.error(`cua-driver: call observer failed before ${call.tool.name}:`, error);
    }
  }
  if (finishers.length === 0) return await run();
  let result: ToolResult;
  try {
    result = await run();
  } catch (error) {
    await finish(finishers, call, failureOf(asDriverError(error)));
    throw error;
  }
  await finish(finishers, call, result);
  return result;
}

async function finish(finishers: CallFinisher[], call: ObservedCall, result: ToolResult): Promise<void> {
  for (const finisher of finishers) {
    try {
      await finisher(result);
    } catch (error) {
      console.error(`cua-driver: call observer failed after ${call.tool.name}:`, error);
    }
  }
}

/** The isError result a thrown error becomes (the registry builds the same one). */
function failureOf(error: DriverError): ToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: errorText(error) }],
    structuredContent: toErrorEnvelope(error),
  };
}
