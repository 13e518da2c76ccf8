/**
 * Every session's agent cursor, owned by the runtime: created on a session's
 * first cursor call, removed (overlay and all) when the session ends.
 *
 * The runtime holds this store from the start, but the cursor code (animation, glide,
 * themes) loads only when a tool that creates cursors is about to run
 * ({@linkcode AgentCursorStore.load}, from `RuntimeState.prepare`): a one-shot CLI call of
 * any other tool never loads it, and with no cursor created every lookup here is empty.
 *
 * @module
 */
import type { AgentCursorBackend } from "../../ports/cursor.ts";
import type { Session } from "../../kernel/session.ts";
import type { AgentCursor } from "./cursor.ts";

/** What {@linkcode AgentCursorStore.of} needs from the cursor code, once loaded. */
interface CursorCode {
  AgentCursor: typeof AgentCursor;
  defaultTheme: () => AgentCursor["theme"];
}

/** The agent cursors of all sessions, by session id. */
export class AgentCursorStore {
  readonly #cursors = new Map<string, AgentCursor>();
  #code: CursorCode | null = null;
  #loading: Promise<void> | null = null;

  /**
   * Loads the cursor code {@linkcode of} needs. Idempotent; a failed load is tried again
   * on the next call.
   *
   * @throws the module's own load error (the call that needed the cursor fails with it).
   */
  load(): Promise<void> {
    if (this.#code) return Promise.resolve();
    return this.#loading ??= Promise.all([import("./cursor.ts"), import("./themes.ts")]).then(
      ([{ AgentCursor }, { DEFAULT_THEME_ID, findTheme }]) => {
        this.#code = { AgentCursor, defaultTheme: () => findTheme(DEFAULT_THEME_ID)! };
      },
    ).finally(() => {
      this.#loading = null;
    });
  }

  /**
   * The session's cursor, created (disabled, default theme and motion) on first use.
   *
   * @throws {TypeError} before {@linkcode load} finished (a programming error: the tool's
   *   capabilities do not make `RuntimeState.prepare` load the cursor code).
   */
  of(session: Session, surface: AgentCursorBackend): AgentCursor {
    let cursor = this.#cursors.get(session.id);
    if (!cursor) {
      if (!this.#code) throw new TypeError("AgentCursorStore.of is used before load() finished");
      cursor = new this.#code.AgentCursor(
        session.id,
        displayLabel(session.label),
        surface,
        this.#code.defaultTheme(),
      );
      this.#cursors.set(session.id, cursor);
    }
    return cursor;
  }

  /** The session's cursor if it has one. */
  peek(sessionId: string): AgentCursor | undefined {
    return this.#cursors.get(sessionId);
  }

  /** Removes a session's cursor and its overlay (session cleanup). */
  drop(sessionId: string): void {
    const cursor = this.#cursors.get(sessionId);
    this.#cursors.delete(sessionId);
    cursor?.dispose();
  }

  /** Number of sessions with a cursor. */
  get size(): number {
    return this.#cursors.size;
  }
}

/** The session label as the overlay shows it: control characters dropped, at most 64 characters. */
export function displayLabel(label: string | null): string {
  // deno-lint-ignore no-control-regex
  const clean = (label ?? "implicit").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim().slice(0, 64);
  return clean === "" ? "implicit" : clean;
}
