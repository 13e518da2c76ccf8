/**
 * A cell of the cross-app catalog: one action on a stock app the project did not write,
 * judged by the app's own state read independently (AT-SPI from a fresh process, a file
 * the app wrote, the X server's window title), never by the tool's reply alone.
 *
 * @module
 */
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { ToolResult } from "../../src/kernel/result.ts";

/** One running app window under test. */
export interface AppUnderTest {
  pid: number;
  windowId: number;
  /** `{kind: "window", pid, window_id}`. */
  target: { kind: "window"; pid: number; window_id: number };
}

/** What a cell can do. */
export interface CrossContext {
  app: AppUnderTest;
  /** Calls a tool through the driver, as an agent does. */
  call(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** A fresh get_window_state (with a screenshot, so pixels address it). */
  observe(): Promise<Structured>;
}

/** What an oracle concluded. */
export interface Verdict {
  /** The intended change happened. */
  intended: boolean;
  /** Anything the oracle watches changed. */
  changed: boolean;
  /** What was seen, in words. */
  seen: string;
}

/** Reads state the app owns before and after a cell. */
export interface Oracle {
  says: string;
  read(ctx: CrossContext): Promise<unknown>;
  judge(before: unknown, after: unknown): Verdict;
}

/** The outcome a cell expects. */
export type Expect =
  /** The tool succeeds and the oracle sees the intended change. */
  | { kind: "delivered" }
  /** The tool refuses with this code and nothing changes. */
  | { kind: "refused"; code: string }
  /** The action lands nowhere that changes anything: the tool must say suspected_noop. */
  | { kind: "noop" };

/** One cell. */
export interface CrossCell {
  /** `<app>.<tool>.<addressing>.<delivery>[.<variant>]`. */
  id: string;
  /** Builds the calls from a fresh observation. */
  calls(ctx: CrossContext, state: Structured): Array<{ tool: string; args: Record<string, unknown> }>;
  oracle: Oracle;
  expect: Expect;
}

/** One app of the catalog: how to start it, find its window, and its cells. */
export interface CrossApp {
  /** Short name used in cell ids and the table. */
  name: string;
  /** launch_app arguments. */
  launch: Record<string, unknown>;
  /** Picks the app's main window among list_windows rows of the launched pid. */
  window(row: Structured): boolean;
  /** True when the app has an accessibility tree to compare (xterm has none). */
  hasTree: boolean;
  /** Leave the app running after its cells: the next app is another window of the same process. */
  keep?: boolean;
  /** Waits until the app is ready for cells (page loaded, document open), given its first state. */
  ready?(ctx: CrossContext): Promise<void>;
  cells: CrossCell[];
}

/** An element of a state by role and label (the nth of them, top to bottom). */
export function element(state: Structured, role: string, label?: string | RegExp, nth = 0): Structured {
  const found = (state.elements as Structured[]).filter((e) =>
    e.role === role && e.frame &&
    (label === undefined || (label instanceof RegExp ? label.test(e.label ?? "") : e.label === label))
  ).sort((a, b) => a.frame.y - b.frame.y || a.frame.x - b.frame.x)[nth];
  if (!found) throw new Error(`no ${role} ${label ?? ""} #${nth} in the window's elements`);
  return found;
}

/** A point of an element in the screenshot's pixels (fractions of its frame). */
export function pixel(state: Structured, e: Structured, fx = 0.5, fy = 0.5): { x: number; y: number } {
  const scale = (state.screenshot_width ?? state.bounds.width) / state.bounds.width;
  return {
    x: Math.round((e.frame.x + e.frame.w * fx - state.bounds.x) * scale),
    y: Math.round((e.frame.y + e.frame.h * fy - state.bounds.y) * scale),
  };
}

/** An oracle over one reading: `intended(before, after)`, changed when the readings differ. */
export function oracle<T>(
  says: string,
  read: (ctx: CrossContext) => Promise<T>,
  intended: (before: T, after: T) => boolean,
): Oracle {
  return {
    says,
    read,
    judge(before, after) {
      const [b, a] = [before as T, after as T];
      const changed = JSON.stringify(b) !== JSON.stringify(a);
      return {
        intended: intended(b, a),
        changed,
        seen: changed ? `${JSON.stringify(b)} -> ${JSON.stringify(a)}` : `unchanged ${JSON.stringify(a)}`,
      };
    },
  };
}
