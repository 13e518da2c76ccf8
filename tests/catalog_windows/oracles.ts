/**
 * Oracles over state the app owns, read through Win32 by the test: a button's
 * BM_GETCHECK, an edit's WM_GETTEXT and EM_GETSEL, the first visible line, a window
 * rectangle.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import { checkOf, textOf } from "../windows/_win_apps.ts";
import type { OracleVerdict, WinOracle } from "./cell.ts";
import type { WinWorld } from "./world.ts";

function verdict(intended: boolean, changed: boolean, seen: string): OracleVerdict {
  return { intended, changed, seen };
}

/** A button's check state flips (or becomes `want`). */
export function check(says: string, control: (w: WinWorld) => number, want?: number): WinOracle {
  return {
    says,
    read: (w) => checkOf(control(w)),
    judge: (b, a) => verdict(want === undefined ? a !== b : a === want, a !== b, `BM_GETCHECK ${b} -> ${a}`),
  };
}

/** An edit's text (WM_GETTEXT) satisfies `intended`. */
export function text(
  says: string,
  control: (w: WinWorld) => number,
  intended: (before: string, after: string) => boolean,
): WinOracle {
  return {
    says,
    read: (w) => textOf(control(w)),
    judge: (b, a) =>
      verdict(
        intended(b as string, a as string),
        a !== b,
        `WM_GETTEXT ${JSON.stringify(b)} -> ${JSON.stringify(a)}`,
      ),
  };
}

/** Any numeric reading satisfies `intended`. */
export function reading<T>(
  says: string,
  read: (w: WinWorld) => T,
  intended: (before: T, after: T) => boolean,
): WinOracle {
  return {
    says,
    read,
    judge: (b, a) =>
      verdict(
        intended(b as T, a as T),
        JSON.stringify(a) !== JSON.stringify(b),
        `${JSON.stringify(b)} -> ${JSON.stringify(a)}`,
      ),
  };
}

/** Observation: the tool's result agrees with the app's own state read after it. */
export function agrees(
  says: string,
  read: (w: WinWorld) => unknown,
  agree: (result: Structured, state: unknown) => string | null,
): WinOracle {
  return {
    says,
    read,
    judge: (_b, a, result) => {
      const problem = agree(result, a);
      return verdict(problem === null, false, problem ?? says);
    },
  };
}
