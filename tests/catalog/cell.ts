/**
 * What a catalog cell is: one action tool, addressed one way (element, pixel or
 * neither), delivered one way (background, foreground, or not applicable for the
 * desktop scope and pure accessibility routes), in one scope, against one app, with
 * an oracle over state the app owns and the exact outcome expected.
 *
 * @module
 */
import type { JournalEntry } from "../_helpers/fixture_app.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";

/** The app a cell acts on. */
export type App = "fixture" | "widget-factory" | "xmessage" | "sentinel";
/** How the cell names what it acts on. */
export type Addressing = "element" | "pixel" | "none";
/** The ladder rung the cell asks for; "n/a" for the desktop scope and accessibility-only tools. */
export type Delivery = "background" | "foreground" | "n/a";
/** Window or desktop scope. */
export type Scope = "window" | "desktop";

/** One tool call. */
export interface Call {
  tool: string;
  args: Record<string, unknown>;
}

/** A point in some pixel space. */
export interface Point {
  x: number;
  y: number;
}

/** Picks elements: by exact label, or by a predicate over the element row. */
export type ElementSpec = string | ((element: Structured) => boolean);

/** A fresh observation of one app window, taken through the driver the way an agent takes it. */
export interface View {
  readonly pid: number;
  readonly windowId: number;
  /** `{kind: "window", pid, window_id}`. */
  readonly target: { kind: "window"; pid: number; window_id: number };
  /** The get_window_state result (empty for windows without a pid). */
  readonly state: Structured;
  /** The element token of the `nth` (top to bottom) element labelled `label`. */
  token(label: ElementSpec, nth?: number): string;
  /** A point of an element in the screenshot's pixels: its frame at fractions fx, fy. */
  pixel(label: ElementSpec, fx?: number, fy?: number, nth?: number): Point;
  /** The same point in screen coordinates (desktop scope). */
  screen(label: ElementSpec, fx?: number, fy?: number, nth?: number): Point;
  /** A named fixture widget's box relative to the client area (from the fixture's own ready line). */
  widget(name: string): { x: number; y: number; width: number; height: number };
  /** A point of a named fixture widget (from the fixture's own ready line) in screenshot pixels. */
  widgetPixel(name: string, fx?: number, fy?: number): Point;
  /** The same in screen coordinates. */
  widgetScreen(name: string, fx?: number, fy?: number): Point;
  /** The element labelled `label` (nth from the top) of this observation. */
  element(label: ElementSpec, nth?: number): Structured;
}

/** What the cell can reach besides its own fresh view. */
export interface CellContext {
  view: View;
  /** A fresh observation of another app (or the same app again, replacing `view`'s snapshot). */
  observe(app: App, options?: { session?: string }): Promise<View>;
  /** The sentinel process and its windows. */
  sentinel: { pid: number; windows: Record<string, number> };
  /** Calls a tool through the driver (for preparation steps). */
  call(tool: string, args: Record<string, unknown>): Promise<Structured>;
  /** The xmessage started for this cell (xmessage cells only). */
  xmessage(): { pid: number; windowId: number; buttons: Point[] } | null;
  /** The fixture's state after its latest journal line (the app's own account). */
  fixtureState(): Promise<FixtureState>;
  /** Points of the sentinel windows in screen coordinates. */
  sentinelScreen(name: string, fx?: number, fy?: number): Promise<Point>;
}

/** State an oracle compares before and after a cell. */
export type OracleReading = unknown;

/** What an oracle concluded about a before/after pair. */
export interface OracleVerdict {
  /** The intended change happened. */
  intended: boolean;
  /** Anything the oracle watches changed at all. */
  changed: boolean;
  /** A short account of what was seen, for the table and failure messages. */
  seen: string;
}

/**
 * Reads app-owned state (the fixture's journal, a fresh accessibility read of a stock
 * app, a process's output, the X pointer) before and after a cell.
 */
export interface Oracle {
  /** What the oracle checks, in words ("counter +1"). */
  readonly says: string;
  read(ctx: CellContext): Promise<OracleReading>;
  judge(before: OracleReading, after: OracleReading): OracleVerdict;
}

/** The exact outcome a cell expects. */
export type Expectation =
  /** The tool succeeds and the oracle sees the intended change; `route` pins the route when given. */
  | { kind: "delivered"; route?: string }
  /** The tool fails with exactly this code (and field), and nothing changes. */
  | { kind: "refused"; code: string; field?: string }
  /** An observation tool: its status must equal `status` and agree with the app's own state. */
  | { kind: "observed"; status: string };

/** One cell of the catalog. */
export interface Cell {
  id: string;
  app: App;
  /** The tool under test (a batch cell names run_actions; a hold sequence names its first tool). */
  tool: string;
  addressing: Addressing;
  delivery: Delivery;
  scope: Scope;
  /** True when the point the cell acts on is covered by a sentinel window. */
  covered?: boolean;
  /** Steps through the driver before the before-readings (e.g. a desktop click that focuses a field). */
  prepare?(ctx: CellContext): Promise<void>;
  /** The calls, built from the cell's fresh view. */
  calls(ctx: CellContext): Call[] | Promise<Call[]>;
  oracle: Oracle;
  expect: Expectation;
  /** The sentinel window this cell targets on purpose (its events are the oracle, not a leak). */
  sentinelTarget?: string;
  /**
   * Idle time after the previous cell before this one starts: GTK counts a double click
   * that follows another within twice the double-click time (800 ms) as a triple click.
   */
  quietMs?: number;
  /** Undo what the cell changed that later cells must not see (an open menu, a switched page). */
  cleanup?(ctx: CellContext): Promise<void>;
}

/** The fixture journal's state fields after the last entry. */
export type FixtureState = Record<string, unknown>;

/** A fixture journal reading: how many lines, and the state after the last. */
export interface JournalReading {
  count: number;
  state: FixtureState;
  entries: JournalEntry[];
}
