/**
 * What the cross-app cells share: the mixed-script text, the expected results and the
 * one-call step builder.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { CrossContext } from "./cell.ts";

/** Mixed scripts: Latin with diacritics, Greek, CJK and a symbol outside the keymap. */
export const MIXED = "Ünï Ωμέγα 日本 ✓";

/** The action lands and the app's state shows it. */
export const delivered = { kind: "delivered" } as const;
/** Nothing the action could change changes (the tool must say suspected_noop). */
export const noop = { kind: "noop" } as const;
/** The tool refuses with `code` before sending anything. */
export const refused = (code: string) => ({ kind: "refused", code }) as const;
/** Foreground delivery. */
export const FG = { delivery_mode: "foreground" };

/** One tool call whose arguments come from the context and the first observation. */
export function call(tool: string, args: (ctx: CrossContext, state: Structured) => Record<string, unknown>) {
  return (ctx: CrossContext, state: Structured) => [{ tool, args: args(ctx, state) }];
}
