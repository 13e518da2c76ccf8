/**
 * Starts the GTK3 fixture app (`tests/fixtures/gtk3_harness.py`) on a desktop and reads
 * its journal, the JSON lines it writes on every state change.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { type JournalEntry, spawnJournalProcess } from "./journal_process.ts";

export { FIXTURE_PYTHON, type JournalEntry, readJournalFile } from "./journal_process.ts";

/** The fixture app's script. */
export const FIXTURE_SCRIPT = fileURLToPath(new URL("../fixtures/gtk3_harness.py", import.meta.url));

const READY_TIMEOUT_MS = 15_000;
const POLL_MS = 20;

/** Options of {@linkcode startFixture}. */
export interface FixtureOptions {
  /** Window title; default "CuaTestHarness GTK3". */
  title?: string;
  /** Window position (frame top-left) in screen pixels. */
  x?: number;
  y?: number;
  /** Fill colour of the `swatch` area, `#rrggbb`; default `#d6289d`. */
  swatch?: string;
  /** How long to wait for the ready line; default 15 s. */
  readyTimeoutMs?: number;
}

/** A widget's box in pixels, relative to the toplevel's client area (the window `xid`). */
export interface WidgetRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A running fixture app. */
export interface FixtureApp {
  readonly pid: number;
  /** X11 window id of the toplevel (the client window, inside openbox's frame). */
  readonly xid: number;
  readonly title: string;
  /** Fill colour of the `swatch` area, `#rrggbb`. */
  readonly swatch: string;
  readonly journalPath: string;
  /** Geometry of each named control (`btn-increment`, `txt-input`, ...) when it became ready. */
  readonly widgets: Readonly<Record<string, WidgetRect>>;
  /** Every complete journal line so far. */
  readJournal(): Promise<JournalEntry[]>;
  /** The first journal entry matching `predicate`; rejects after `timeoutMs` (default 5 s). */
  waitFor(predicate: (entry: JournalEntry) => boolean, timeoutMs?: number): Promise<JournalEntry>;
  /** Resolves when the app exits. */
  readonly status: Promise<Deno.CommandStatus>;
  /** What the app printed on stderr (the last few kB). */
  stderr(): string;
  /** SIGTERM (SIGKILL after 3 s), then removes the journal. Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the fixture with `env` (usually `desktopEnv()`) added to the inherited
 * environment, and waits for its ready line.
 *
 * @throws {Error} when the app exits or is not ready in time; the message carries its stderr.
 */
export async function startFixture(
  env: Record<string, string>,
  options: FixtureOptions = {},
): Promise<FixtureApp> {
  const args: string[] = [];
  if (options.title !== undefined) args.push("--title", options.title);
  if (options.x !== undefined) args.push("--x", String(options.x));
  if (options.y !== undefined) args.push("--y", String(options.y));
  if (options.swatch !== undefined) args.push("--swatch", options.swatch);
  const app = await spawnJournalProcess(FIXTURE_SCRIPT, args, env);
  const { readJournal, stop } = app;
  async function waitFor(
    predicate: (entry: JournalEntry) => boolean,
    timeoutMs = 5_000,
  ): Promise<JournalEntry> {
    const deadline = performance.now() + timeoutMs;
    while (true) {
      const entries = await readJournal();
      const found = entries.find(predicate);
      if (found !== undefined) return found;
      if (performance.now() > deadline) {
        const last = entries.at(-1);
        throw new Error(
          `Fixture journal has no matching entry after ${timeoutMs} ms; last entry: ${JSON.stringify(last)}` +
            `${app.stderr() === "" ? "" : `\nstderr:\n${app.stderr()}`}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  const ready = await app.ready(options.readyTimeoutMs ?? READY_TIMEOUT_MS, "Fixture app");

  return {
    pid: app.pid,
    xid: Number(ready.xid),
    title: String(ready.title),
    swatch: String(ready.swatch),
    journalPath: app.journalPath,
    widgets: (ready.widgets ?? {}) as Record<string, WidgetRect>,
    readJournal,
    waitFor,
    status: app.status,
    stderr: app.stderr,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
