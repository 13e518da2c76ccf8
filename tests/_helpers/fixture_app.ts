/**
 * Starts the GTK3 fixture app (`tests/fixtures/gtk3_harness.py`) on a desktop and reads
 * its journal, the JSON lines it writes on every state change.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** Debian's Python, which has python3-gi; the first `python3` on PATH may not. */
export const FIXTURE_PYTHON = "/usr/bin/python3";
/** The fixture app's script. */
export const FIXTURE_SCRIPT = fileURLToPath(new URL("../fixtures/gtk3_harness.py", import.meta.url));

const READY_TIMEOUT_MS = 15_000;
const POLL_MS = 20;
const STDERR_TAIL_CHARS = 4_000;

/** One journal line: a state snapshot after `event` (`ready`, `click`, `key`, `drag`, `exit`, ...). */
export interface JournalEntry {
  /** Unix time in milliseconds. */
  t: number;
  event: string;
  [key: string]: unknown;
}

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
  const dir = await Deno.makeTempDir({ prefix: "cua-fixture-" });
  const journalPath = `${dir}/journal.jsonl`;
  const args = [FIXTURE_SCRIPT, "--journal", journalPath];
  if (options.title !== undefined) args.push("--title", options.title);
  if (options.x !== undefined) args.push("--x", String(options.x));
  if (options.y !== undefined) args.push("--y", String(options.y));
  if (options.swatch !== undefined) args.push("--swatch", options.swatch);
  const child = new Deno.Command(FIXTURE_PYTHON, {
    args,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  })
    .spawn();
  let stderr = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)) }),
  ).catch(() => {});
  let exited = false;
  const status = child.status.finally(() => exited = true);

  let stopping: Promise<void> | null = null;
  async function stop(): Promise<void> {
    stopping ??= (async () => {
      if (!exited) child.kill("SIGTERM");
      const timer = setTimeout(() => exited || child.kill("SIGKILL"), 3_000);
      await status;
      clearTimeout(timer);
      await stderrDone;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    })();
    return await stopping;
  }

  const readJournal = () => readJournalFile(journalPath);
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
            `${stderr === "" ? "" : `\nstderr:\n${stderr}`}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const deadline = performance.now() + readyTimeoutMs;
  let ready: JournalEntry | undefined;
  while (ready === undefined) {
    ready = (await readJournal()).find((entry) => entry.event === "ready");
    if (ready !== undefined) break;
    if (exited || performance.now() > deadline) {
      const why = exited ? `exited (${(await status).code})` : `was not ready after ${readyTimeoutMs} ms`;
      await stop();
      throw new Error(`Fixture app ${why}; DISPLAY=${env.DISPLAY ?? "(inherited)"}\nstderr:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  return {
    pid: child.pid,
    xid: Number(ready.xid),
    title: String(ready.title),
    swatch: String(ready.swatch),
    journalPath,
    widgets: (ready.widgets ?? {}) as Record<string, WidgetRect>,
    readJournal,
    waitFor,
    status,
    stderr: () => stderr,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** Parses a journal file; a missing file or a half-written last line counts as nothing. */
export async function readJournalFile(path: string): Promise<JournalEntry[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const entries: JournalEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // The app is still writing this line.
    }
  }
  return entries;
}
