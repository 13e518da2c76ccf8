/**
 * The running macOS's version (`kern.osproductversion`), for the few paths that differ
 * between releases (capture on macOS 15, activation on macOS 14).
 *
 * @module
 */
import type { DarwinContext } from "./context.ts";

/** A string sysctl by name, or null. */
export function sysctlString(ctx: DarwinContext, name: string): string | null {
  const length = new BigUint64Array([256n]);
  const buffer = new Uint8Array(256);
  if (ctx.fw.system.sysctlbyname(new TextEncoder().encode(name + "\0"), buffer, length, null, 0n) !== 0) {
    return null;
  }
  const end = buffer.indexOf(0);
  return new TextDecoder().decode(buffer.subarray(0, end < 0 ? Number(length[0]) : end));
}

/** The major macOS version (14 for "14.6.1"), or null when unknown. */
export function macOSMajor(ctx: DarwinContext): number | null {
  const major = Number.parseInt(sysctlString(ctx, "kern.osproductversion") ?? "", 10);
  return Number.isFinite(major) ? major : null;
}
