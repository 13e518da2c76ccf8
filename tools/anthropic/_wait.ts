/**
 * A wait that ends early, with `aborted`, when the call is cancelled.
 *
 * @module
 */
import { DriverError } from "../../src/ports/errors.ts";

/** Resolves after `ms`, or rejects with `aborted` when `signal` aborts first. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(new DriverError("aborted", "The wait was cancelled"));
    };
    if (signal.aborted) return stop();
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
