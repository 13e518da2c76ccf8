/**
 * A GTK test app run by Debian's Python that writes a journal of JSON lines (the
 * fixture app, the catalog's sentinel windows): started with its stderr kept, stopped
 * once, and its journal read as it grows.
 *
 * @module
 */

/** Debian's Python, which has python3-gi; the first `python3` on PATH may not. */
export const FIXTURE_PYTHON = "/usr/bin/python3";

const POLL_MS = 20;
const STDERR_TAIL_CHARS = 4_000;

/** One journal line: a state snapshot after `event` (`ready`, `click`, `key`, ...). */
export interface JournalEntry {
  /** Unix time in milliseconds. */
  t: number;
  event: string;
  [key: string]: unknown;
}

/** A running journalling app. */
export interface JournalProcess {
  readonly pid: number;
  readonly journalPath: string;
  /** Resolves when the app exits. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Every complete journal line so far. */
  readJournal(): Promise<JournalEntry[]>;
  /**
   * The journal's `ready` line. Stops the app and throws, with its stderr, when it exits
   * or is not ready within `timeoutMs`.
   */
  ready(timeoutMs: number, what: string): Promise<JournalEntry>;
  /** What the app printed on stderr (the last few kB). */
  stderr(): string;
  /** SIGTERM (SIGKILL after 3 s), then removes the journal. Idempotent. */
  stop(): Promise<void>;
}

/** Starts `script --journal <temp file> ...args` with `env` added to the inherited environment. */
export async function spawnJournalProcess(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<JournalProcess> {
  const dir = await Deno.makeTempDir({ prefix: "cua-journal-" });
  const journalPath = `${dir}/journal.jsonl`;
  const child = new Deno.Command(FIXTURE_PYTHON, {
    args: [script, "--journal", journalPath, ...args],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)) }),
  ).catch(() => {});
  let exited = false;
  const status = child.status.finally(() => exited = true);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    stopping ??= (async () => {
      if (!exited) child.kill("SIGTERM");
      const timer = setTimeout(() => exited || child.kill("SIGKILL"), 3_000);
      await status;
      clearTimeout(timer);
      await stderrDone;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    })();
  const readJournal = () => readJournalFile(journalPath);

  async function ready(timeoutMs: number, what: string): Promise<JournalEntry> {
    const deadline = performance.now() + timeoutMs;
    while (true) {
      const entry = (await readJournal()).find((e) => e.event === "ready");
      if (entry !== undefined) return entry;
      if (exited || performance.now() > deadline) {
        const why = exited ? `exited (${(await status).code})` : `was not ready after ${timeoutMs} ms`;
        await stop();
        throw new Error(`${what} ${why}; DISPLAY=${env.DISPLAY ?? "(inherited)"}\nstderr:\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  return { pid: child.pid, journalPath, status, readJournal, ready, stderr: () => stderr, stop };
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
