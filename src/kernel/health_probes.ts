/**
 * Running a back end's health probes by name: unknown names are left out, the rest run
 * concurrently in the order asked, and a probe that throws becomes a `fail` check with
 * the error's message and hint, never a throw.
 *
 * @module
 */
import type { HealthCheck } from "../ports/health.ts";
import { asDriverError } from "../ports/errors.ts";

/** Runs the probes named in `names` against `deps`. */
export async function runHealthProbes<D>(
  probes: Readonly<Record<string, (deps: D) => Promise<HealthCheck>>>,
  deps: D,
  names: readonly string[],
): Promise<HealthCheck[]> {
  const wanted = names.filter((name) => Object.hasOwn(probes, name));
  return await Promise.all(wanted.map(async (name) => {
    try {
      return await probes[name](deps);
    } catch (error) {
      const driverError = asDriverError(error);
      return {
        name,
        status: "fail" as const,
        message: driverError.message,
        ...(driverError.data.hint ? { hint: String(driverError.data.hint) } : {}),
      };
    }
  }));
}
