/**
 * What a Windows catalog cell is: the same form as the Linux catalog's (tests/catalog/
 * cell.ts): one tool, addressed one way, delivered one way, an oracle over state the
 * app owns read through Win32, and the exact outcome expected.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { Addressing, Delivery, Expectation, OracleVerdict } from "../catalog/cell.ts";
import type { WinWorld } from "./world.ts";

/** One tool call. */
export interface WinCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Reads app-owned state through Win32 before and after a cell. */
export interface WinOracle {
  readonly says: string;
  read(world: WinWorld): unknown | Promise<unknown>;
  /** Compares the readings; observation cells also get the tool's result. */
  judge(before: unknown, after: unknown, result: Structured): OracleVerdict;
}

/**
 * The exact outcome a Windows cell expects: the Linux catalog's kinds, where `delivered` may pin
 * the effect the driver must report, plus `reported`: input the app may not act on (a posted click
 * on a drop-down, keys into a console), where the tool must succeed and its effect must agree with
 * the app's own state either way (never `confirmed` for a change that did not happen, never
 * `suspected_noop` for one that did).
 */
export type WinExpectation =
  | Exclude<Expectation, { kind: "delivered" }>
  | { kind: "delivered"; effect?: string }
  | { kind: "reported"; effects: readonly string[] };

/** One cell. */
export interface WinCell {
  id: string;
  tool: string;
  addressing: Addressing;
  delivery: Delivery;
  prepare?(world: WinWorld): Promise<void> | void;
  calls(world: WinWorld): WinCall[] | Promise<WinCall[]>;
  oracle: WinOracle;
  expect: WinExpectation;
  /** Apps only some desktops have (winecfg under Wine, the WinForms fixture where CI built it): the cell runs where they do. */
  needs?: readonly ("winecfg" | "winforms")[];
  /**
   * A defect this cell shows and the driver has not fixed yet: a `suspected_noop` for input the app's
   * state shows landed is reported beside the cell's reading ("known defect: ...") instead of failing
   * it. Every other problem (a silent no-op, a false confirmation, the sentinel or the foreground
   * touched) still fails the cell.
   */
  knownFalseNoop?: string;
  cleanup?(world: WinWorld): Promise<void> | void;
}

export type { OracleVerdict };
