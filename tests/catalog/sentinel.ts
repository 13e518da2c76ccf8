/**
 * The catalog's sentinel windows (`sentinel.py`): GTK3 toplevels placed over a known
 * part of each app the catalog drives, journaling every pointer, wheel, key, crossing
 * and focus event they receive. Input meant for an app that lands here fails a cell.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { type JournalEntry, spawnJournalProcess } from "../_helpers/journal_process.ts";

const SCRIPT = fileURLToPath(new URL("./sentinel.py", import.meta.url));
const READY_TIMEOUT_MS = 15_000;

/** One sentinel window: where its frame goes and how big its client area is. */
export interface SentinelWindowSpec {
  name: string;
  /** Frame top-left in screen pixels (the window manager adds the decorations inside). */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One event a sentinel window received. */
export interface SentinelEvent extends JournalEntry {
  window: string;
  x?: number;
  y?: number;
  device?: string;
  key?: string;
  in?: boolean;
}

/** The running sentinel process. */
export interface Sentinel extends AsyncDisposable {
  readonly pid: number;
  /** X window id of each named window. */
  readonly windows: Readonly<Record<string, number>>;
  /** Every input event so far (the ready line excluded). */
  events(): Promise<SentinelEvent[]>;
  stop(): Promise<void>;
}

/** Starts the sentinel with one window per spec and waits until all are mapped. */
export async function startSentinel(
  env: Record<string, string>,
  specs: readonly SentinelWindowSpec[],
): Promise<Sentinel> {
  const args: string[] = [];
  for (const s of specs) args.push("--window", `${s.name}:${s.x},${s.y},${s.width}x${s.height}`);
  const app = await spawnJournalProcess(SCRIPT, args, env);
  const ready = await app.ready(READY_TIMEOUT_MS, "Sentinel");
  return {
    pid: app.pid,
    windows: ready.windows as Record<string, number>,
    async events() {
      return (await app.readJournal()).filter((e) => e.event !== "ready") as SentinelEvent[];
    },
    stop: app.stop,
    [Symbol.asyncDispose]: app.stop,
  };
}

const CORE_DEVICE = /^Virtual core /;

/**
 * What a background action must never cause in a sentinel window: any input (button,
 * motion, wheel, key, touch) from any device, a pointer entering it, or the user's
 * keyboard focus moving (the core keyboard's focus events). A private pointer leaving
 * it, or the private keyboard's own focus, is not the user's and is allowed.
 */
export function isBackgroundLeak(event: SentinelEvent): boolean {
  if (event.event === "leave") return false;
  if (event.event === "focus") return event.device === undefined || CORE_DEVICE.test(event.device);
  return true;
}

/**
 * What a foreground or desktop action must never cause in a sentinel window: a button,
 * wheel, key or touch event (the real pointer passing over it on the way back is expected).
 */
export function isDeliveredInput(event: SentinelEvent): boolean {
  return !["enter", "leave", "focus", "motion"].includes(event.event);
}

/** One line per event, for failure messages. */
export function describeEvents(events: readonly SentinelEvent[], limit = 4): string {
  const shown = events.slice(0, limit).map((e) =>
    `${e.window}:${e.event}${e.key ? `(${e.key})` : ""}${e.x !== undefined ? `@${e.x},${e.y}` : ""}${
      e.in !== undefined ? (e.in ? "(in)" : "(out)") : ""
    }${e.device ? `[${e.device}]` : ""}`
  );
  return shown.join(" ") + (events.length > limit ? ` +${events.length - limit} more` : "");
}
