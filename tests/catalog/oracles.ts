/**
 * Oracles: readings of state the app (or the desktop) owns, taken before and after a
 * cell, never from the action's own result. The fixture's journal, a fresh
 * accessibility observation of the stock app, xmessage's own output and exit code,
 * the X pointer, and the motion a sentinel window journals.
 *
 * @module
 */
import type { JournalEntry } from "../_helpers/fixture_app.ts";
import type { Structured } from "../_helpers/in_process_driver.ts";
import type { CellContext, ElementSpec, FixtureState, Oracle, OracleVerdict, Point } from "./cell.ts";
import type { SentinelEvent } from "./sentinel.ts";

/** Context the oracles read through (a superset of what cells see). */
export interface OracleContext extends CellContext {
  fixtureJournal(): Promise<JournalEntry[]>;
  /** A fresh get_window_state of the stock app, tree only. */
  stockTree(): Promise<Structured>;
  xmessageState(): { output: string; exitCode: number | null } | null;
  sentinelEvents(): Promise<SentinelEvent[]>;
  pointer(): Promise<Point>;
}

function oracleContext(ctx: CellContext): OracleContext {
  return ctx as OracleContext;
}

const STATE_KEYS = new Set(["t", "event"]);

function stateOf(entry: JournalEntry | undefined): FixtureState {
  const state: FixtureState = {};
  for (const [key, value] of Object.entries(entry ?? {})) if (!STATE_KEYS.has(key)) state[key] = value;
  return state;
}

/**
 * The fixture's journal. `holds(before, after, added)` decides whether the intended
 * change happened; any new journal line counts as a change.
 */
export function journal(
  says: string,
  holds: (before: FixtureState, after: FixtureState, added: JournalEntry[]) => boolean,
): Oracle {
  return {
    says,
    async read(ctx) {
      const entries = (await oracleContext(ctx).fixtureJournal()).filter((e) => e.event !== "ready");
      return entries;
    },
    judge(before, after): OracleVerdict {
      const old = before as JournalEntry[], now = after as JournalEntry[];
      const added = now.slice(old.length);
      const from = stateOf(old.at(-1)), to = stateOf(now.at(-1));
      const diff = Object.keys(to).filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k]))
        .map((k) => `${k}=${JSON.stringify(to[k])}`);
      const events = [...new Set(added.map((e) => e.event))];
      return {
        intended: added.length > 0 && holds(from, to, added),
        changed: added.length > 0,
        seen: added.length === 0
          ? "journal: nothing"
          : `journal: ${events.join(",")}${diff.length ? ` ${diff.join(" ")}` : ""}`,
      };
    },
  };
}

/** A numeric field of the fixture state went up by exactly `by`. */
export function fixtureIncrement(field: string, by = 1): Oracle {
  return journal(
    `${field} +${by}`,
    (before, after) => Number(after[field]) - Number(before[field]) === by,
  );
}

/** The fixture journaled an event whose state satisfies `check`. */
export function fixtureEvent(says: string, event: string, check: (entry: JournalEntry) => boolean): Oracle {
  return journal(says, (_b, _a, added) => added.some((e) => e.event === event && check(e)));
}

/** One element of a fresh stock-app observation, by label (or predicate) and order from the top. */
export function stockElement(tree: Structured, spec: ElementSpec, nth = 0): Structured | undefined {
  const test = typeof spec === "string" ? (e: Structured) => e.label === spec : spec;
  const matches = (tree.elements as Structured[]).filter((e) => e.frame && test(e))
    .sort((a, b) => a.frame.y - b.frame.y || a.frame.x - b.frame.x);
  return matches[nth];
}

function digest(tree: Structured): string {
  return (tree.elements as Structured[]).map((e) =>
    `${e.role}|${e.label}|${e.value ?? ""}|${e.selected ?? ""}`
  ).join("\n");
}

/**
 * A fresh accessibility observation of the stock app (tree only, through the driver, as
 * an agent observes). `pick` extracts the watched value; `holds` compares it. Any
 * change anywhere in the tree (roles, labels, values, checked states) counts as a change.
 */
export function stockTree<T>(
  says: string,
  pick: (tree: Structured) => T,
  holds: (before: T, after: T) => boolean,
): Oracle {
  return {
    says,
    async read(ctx) {
      const tree = await oracleContext(ctx).stockTree();
      return { digest: digest(tree), value: pick(tree) };
    },
    judge(before, after) {
      const b = before as { digest: string; value: T }, a = after as { digest: string; value: T };
      return {
        intended: holds(b.value, a.value),
        changed: b.digest !== a.digest,
        seen: `${JSON.stringify(b.value)} -> ${JSON.stringify(a.value)}`,
      };
    },
  };
}

/** The checked state of a stock-app element flipped. */
export function stockToggled(label: string, nth = 0): Oracle {
  return stockTree(
    `${label}#${nth} checked flips`,
    (tree) => stockElement(tree, label, nth)?.selected ?? null,
    (before, after) => before !== null && after !== null && before !== after,
  );
}

/** The numeric value of a stock-app element changed by `check(before, after)`. */
export function stockNumber(
  says: string,
  find: (tree: Structured) => Structured | undefined,
  check: (before: number, after: number) => boolean,
): Oracle {
  return stockTree(says, (tree) => {
    const value = Number(find(tree)?.value);
    return Number.isFinite(value) ? value : null;
  }, (before, after) => before !== null && after !== null && check(before, after));
}

/** The text of a stock-app element satisfies `check`. */
export function stockText(
  says: string,
  find: (tree: Structured) => Structured | undefined,
  check: (before: string, after: string) => boolean,
): Oracle {
  return stockTree(says, (tree) => String(find(tree)?.value ?? ""), check);
}

/** xmessage printed `label` and exited with `code`. */
export function xmessageChose(label: string, code: number): Oracle {
  return {
    says: `xmessage prints ${label}, exits ${code}`,
    read(ctx) {
      return Promise.resolve(oracleContext(ctx).xmessageState() ?? { output: "", exitCode: null });
    },
    judge(before, after) {
      const a = after as { output: string; exitCode: number | null };
      const b = before as { output: string; exitCode: number | null };
      return {
        intended: a.output.trim() === label && a.exitCode === code,
        changed: a.output !== b.output || a.exitCode !== b.exitCode,
        seen: a.exitCode === null ? `running, printed ${JSON.stringify(a.output)}` : `exit ${a.exitCode}, ` +
          `printed ${JSON.stringify(a.output.trim())}`,
      };
    },
  };
}

/** The real pointer (X core pointer, read with xdotool) is at `at`. */
export function pointerAt(at: (ctx: CellContext) => Point): Oracle {
  let target: Point = { x: NaN, y: NaN };
  return {
    says: "the real pointer moves there",
    async read(ctx) {
      target = at(ctx);
      return await oracleContext(ctx).pointer();
    },
    judge(before, after) {
      const b = before as Point, a = after as Point;
      return {
        intended: a.x === target.x && a.y === target.y,
        changed: a.x !== b.x || a.y !== b.y,
        seen: `pointer (${b.x}, ${b.y}) -> (${a.x}, ${a.y})`,
      };
    },
  };
}

/** A sentinel window journaled pointer motion or crossing from a device other than the core pointer. */
export function sentinelHover(window: string): Oracle {
  return {
    says: `sentinel ${window} sees a private pointer arrive`,
    async read(ctx) {
      return await oracleContext(ctx).sentinelEvents();
    },
    judge(before, after) {
      const added = (after as SentinelEvent[]).slice((before as SentinelEvent[]).length)
        .filter((e) => e.window === window);
      const hover = added.filter((e) =>
        (e.event === "motion" || e.event === "enter") && e.device !== undefined && !/core/i.test(e.device)
      );
      return {
        intended: hover.length > 0,
        changed: added.length > 0,
        seen: hover.length ? `${hover[0].event} from ${hover[0].device}` : `${added.length} events, no hover`,
      };
    },
  };
}

/** Both oracles see their intended change (for a cell that acts on two apps at once). */
export function both(first: Oracle, second: Oracle): Oracle {
  return {
    says: `${first.says} and ${second.says}`,
    async read(ctx) {
      return [await first.read(ctx), await second.read(ctx)];
    },
    judge(before, after) {
      const [b1, b2] = before as unknown[], [a1, a2] = after as unknown[];
      const one = first.judge(b1, a1), two = second.judge(b2, a2);
      return {
        intended: one.intended && two.intended,
        changed: one.changed || two.changed,
        seen: `${one.seen}; ${two.seen}`,
      };
    },
  };
}
