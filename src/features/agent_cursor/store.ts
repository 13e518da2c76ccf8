/**
 * Choosing a session cursor's theme (start_session, set_agent_cursor_theme). The store of
 * every session's cursor is session_cursors.ts, which the runtime holds without loading
 * the cursor code.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { AgentCursor, ReducedMotion } from "./cursor.ts";
import { type CursorTheme, installedThemes } from "./themes.ts";

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
