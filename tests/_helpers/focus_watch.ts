/**
 * Watches activation and focus for the whole duration of a call, from a client of its
 * own (`focus_watch.py`): every PropertyNotify of the root's `_NET_ACTIVE_WINDOW` and
 * every core FocusIn/FocusOut on the windows named. A background action that activates
 * or focuses anything even for a moment shows up here, where a reading before and after
 * the call sees nothing.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { FIXTURE_PYTHON, type JournalEntry, readJournalFile } from "./journal_process.ts";

const SCRIPT = fileURLToPath(new URL("./focus_watch.py", import.meta.url));
const READY_TIMEOUT_MS = 10_000;
const POLL_MS = 20;

/** One change the watcher saw. */
export interface FocusWatchEvent extends JournalEntry {
  event: "active" | "focus_in" | "focus_out";
  /** `_NET_ACTIVE_WINDOW` read when its PropertyNotify arrived (active). */
  value?: number | null;
  /** The window the focus event was reported on. */
  window?: number;
  mode?: number;
  detail?: number;
}

/** A running watcher. */
export interface FocusWatch extends AsyncDisposable {
  /** `_NET_ACTIVE_WINDOW` when the watch began. */
  readonly activeAtStart: number | null;
  /**
   * Ends the watch after one round trip through the window manager (so its reactions to
   * the call are in) and returns every change seen since the start.
   */
  stop(): Promise<FocusWatchEvent[]>;
}

const MODES = ["Normal", "Grab", "Ungrab", "WhileGrabbed"];
const DETAILS = [
  "Ancestor",
  "Virtual",
  "Inferior",
  "Nonlinear",
  "NonlinearVirtual",
  "Pointer",
  "PointerRoot",
  "None",
];

/** One phrase per change, for failure messages. */
export function describeFocusEvents(events: readonly FocusWatchEvent[]): string {
  const hex = (id: number | null | undefined) => id ? `0x${id.toString(16)}` : "none";
  return events.map((e) =>
    e.event === "active"
      ? `_NET_ACTIVE_WINDOW=${hex(e.value)}`
      : `${e.event}(${hex(e.window)} ${MODES[e.mode ?? 0]}/${DETAILS[e.detail ?? 0]})`
  ).join(", ");
}

/**
 * Starts watching `_NET_ACTIVE_WINDOW` and the core focus of `windows` (X ids) on the
 * display in `env`; resolves once the watcher's selections are in place.
 */
export async function watchFocus(
  env: Record<string, string>,
  windows: readonly number[],
): Promise<FocusWatch> {
  const dir = await Deno.makeTempDir({ prefix: "cua-focus-watch-" });
  const journal = `${dir}/journal.jsonl`;
  const args = [SCRIPT, "--journal", journal, ...windows.flatMap((w) => ["--window", String(w)])];
  const child = new Deno.Command(FIXTURE_PYTHON, {
    args,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  })
    .spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let errText = "";
  const stderrDone = (async () => {
    for (let r = await stderr.read(); !r.done; r = await stderr.read()) errText += r.value;
  })().catch(() => {});
  let exited = false;
  const status = child.status.finally(() => exited = true);
  const cleanup = async () => {
    if (!exited) child.kill("SIGKILL");
    await status;
    await stderrDone;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };

  const deadline = performance.now() + READY_TIMEOUT_MS;
  let ready: JournalEntry | undefined;
  while (!(ready = (await readJournalFile(journal)).find((e) => e.event === "ready"))) {
    if (exited || performance.now() > deadline) {
      await cleanup();
      throw new Error(`focus watcher did not start: ${errText}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  let stopped: Promise<FocusWatchEvent[]> | null = null;
  const stop = () =>
    stopped ??= (async () => {
      if (!exited) child.kill("SIGTERM");
      const code = (await status).code;
      const entries = await readJournalFile(journal);
      await cleanup();
      const done = entries.find((e) => e.event === "done");
      if (code !== 0 || !done) throw new Error(`focus watcher exited ${code} without finishing: ${errText}`);
      if (done.window_manager_answered !== true) {
        throw new Error("focus watcher: the window manager did not answer the closing round trip");
      }
      return entries.filter((e) => e.event !== "ready" && e.event !== "done") as FocusWatchEvent[];
    })();
  return {
    activeAtStart: (ready.active as number | null) ?? null,
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop().catch(() => {});
    },
  };
}
