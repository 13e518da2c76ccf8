/**
 * Every session's agent cursor, owned by the runtime: created on a session's
 * first cursor call, removed (overlay and all) when the session ends.
 *
 * @module
 */
import type { AgentCursorBackend } from "../../platform/types.ts";
import { DriverError } from "../errors.ts";
import type { Session } from "../session.ts";
import { AgentCursor, type ReducedMotion } from "./cursor.ts";
import { type CursorTheme, DEFAULT_THEME_ID, findTheme, installedThemes } from "./themes.ts";

/** The agent cursors of all sessions, by session id. */
export class AgentCursorStore {
  readonly #cursors = new Map<string, AgentCursor>();

  /** The session's cursor, created (disabled, default theme and motion) on first use. */
  of(session: Session, surface: AgentCursorBackend): AgentCursor {
    let cursor = this.#cursors.get(session.id);
    if (!cursor) {
      cursor = new AgentCursor(
        session.id,
        displayLabel(session.label),
        surface,
        findTheme(DEFAULT_THEME_ID)!,
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

/**
 * The installed theme with this id.
 *
 * @throws {DriverError} `invalid_arguments` (field `theme_id`) when no installed theme has
 *   that id; `data.installed` lists the ids that are.
 */
export function requireInstalledTheme(themeId: string): CursorTheme {
  const themes = installedThemes();
  const theme = themes.find((t) => t.id === themeId);
  if (theme) return theme;
  const ids = themes.map((t) => t.id);
  throw new DriverError("invalid_arguments", `Invalid cursor theme id "${themeId}": it is not installed`, {
    field: "theme_id",
    installed: ids,
    hint: `use one of ${ids.map((id) => `"${id}"`).join(", ")}; themes are installed locally, not by a tool`,
  });
}

/**
 * Selects an installed theme for a cursor.
 *
 * @throws {DriverError} `invalid_arguments` as {@linkcode requireInstalledTheme}.
 */
export function selectTheme(cursor: AgentCursor, themeId: string, reducedMotion: ReducedMotion): CursorTheme {
  const theme = requireInstalledTheme(themeId);
  cursor.setTheme(theme, reducedMotion);
  return theme;
}

/** The session label as the overlay shows it: control characters dropped, at most 64 characters. */
export function displayLabel(label: string | null): string {
  // deno-lint-ignore no-control-regex
  const clean = (label ?? "implicit").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim().slice(0, 64);
  return clean === "" ? "implicit" : clean;
}
