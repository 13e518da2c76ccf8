/**
 * Why a call stops early, and the watches that stop it. Every call's `ctx.signal` aborts
 * when its client goes (connection closed, MCP `notifications/cancelled`), when its
 * session ends, when it times out, or when the app an action targets exits. Input loops
 * check the signal between events and say how much was delivered.
 *
 * @module
 */
import { DriverError } from "../ports/errors.ts";
import type { ToolContext } from "./tool.ts";

/** How often a running action checks that its target app still runs. */
export const TARGET_POLL_MS = 20;

/** Why a call was aborted, as the error envelope's `reason` says. */
export type AbortReason = "cancelled" | "timeout" | "session_ended" | "target_exited" | "input_stopped";

interface CallAbort {
  controller: AbortController;
  watches: ReturnType<typeof setInterval>[];
}

const calls = new WeakMap<ToolContext, CallAbort>();

/** Registers the controller that aborts `ctx.signal` on behalf of the driver (the registry does this). */
export function registerCall(ctx: ToolContext, controller: AbortController): void {
  calls.set(ctx, { controller, watches: [] });
}

/** Stops every watch of a finished call (the registry does this). */
export function endCall(ctx: ToolContext): void {
  const call = calls.get(ctx);
  if (!call) return;
  for (const watch of call.watches) clearInterval(watch);
  call.watches.length = 0;
}

/** An abort reason the driver gives, carried as the signal's `reason`. */
export function abortReason(reason: AbortReason, message: string): DriverError {
  return new DriverError("aborted", message, { reason });
}

/** The reason a signal was aborted, in the envelope's words. */
export function reasonOf(signal: AbortSignal): AbortReason {
  const reason = signal.reason;
  if (reason instanceof DriverError && typeof reason.data.reason === "string") {
    return reason.data.reason as AbortReason;
  }
  if (reason instanceof DOMException && reason.name === "TimeoutError") return "timeout";
  return "cancelled";
}

/**
 * Aborts the call when process `pid` exits (checked every {@linkcode TARGET_POLL_MS}).
 * Does nothing for a call the registry did not register.
 */
export function watchTarget(ctx: ToolContext, pid: number): void {
  const call = calls.get(ctx);
  if (!call || call.controller.signal.aborted) return;
  let checking = false;
  const watch = setInterval(async () => {
    if (checking || call.controller.signal.aborted) return;
    checking = true;
    try {
      if (!(await ctx.backend.apps.isAlive(pid))) {
        call.controller.abort(abortReason("target_exited", `The target app (pid ${pid}) exited`));
        clearInterval(watch);
      }
    } catch {
      // A failed check is not an exit.
    } finally {
      checking = false;
    }
  }, TARGET_POLL_MS);
  call.watches.push(watch);
}

/**
 * The error an input loop throws when its call was aborted part-way.
 *
 * @param delivered What reached the app before it stopped (`delivered_count`, and
 *   whatever else the action counts).
 */
export function abortedPartway(
  signal: AbortSignal,
  what: string,
  delivered: { delivered_count: number; [key: string]: number },
): DriverError {
  const reason = reasonOf(signal);
  const why = reason === "target_exited"
    ? "the target app exited"
    : reason === "session_ended"
    ? "its session ended"
    : reason === "input_stopped"
    ? "a person stopped the agent's input"
    : reason === "timeout"
    ? "the call timed out"
    : "the caller cancelled it";
  return new DriverError("aborted", `${what} stopped because ${why}`, {
    reason,
    ...delivered,
    hint: "held keys and buttons were released; observe the window to see what arrived",
  });
}

/**
 * The error for a call its signal stopped, whatever the signal carried: the driver's own
 * reason as it is, a timeout as `timeout`, anything else (a transport's cancel) as `aborted`.
 */
export function abortedError(signal: AbortSignal): DriverError {
  if (signal.reason instanceof DriverError) return signal.reason;
  const reason = reasonOf(signal);
  if (reason === "timeout") {
    return new DriverError("timeout", "The call ran out of time and was stopped", { reason }, {
      cause: signal.reason,
    });
  }
  return new DriverError("aborted", "The caller cancelled the call", { reason }, { cause: signal.reason });
}

/**
 * Waits `ms`, or less when `signal` aborts first (never throws).
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Resolves when `promise` settles or `signal` aborts, whichever comes first (never throws). */
export function settledOrAborted(promise: Promise<unknown>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise.then(() => {}, () => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    promise.then(done, done);
  });
}
