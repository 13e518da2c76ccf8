/**
 * Agent-cursor themes: the built-in ones and those installed locally as JSON
 * files in `<config dir>/cursor-themes/` (never by a tool: a person puts them
 * there). Default theme id `cua.default` (contract.md §1.3).
 *
 * @module
 */
import { dirname, join } from "../../lib/file_paths.ts";
import type { AgentCursorStyle } from "../../ports/cursor.ts";
import { configPath } from "../../kernel/config.ts";

/** The agent-cursor action vocabulary (contract.md §1.0 `cursor_semantics.action`). */
export const CURSOR_ACTIONS = [
  "idle",
  "observe",
  "click",
  "drag",
  "scroll",
  "text",
  "key",
  "navigate",
  "app",
  "transfer",
  "record",
  "system",
] as const;

/** One action of the vocabulary. */
export type CursorAction = typeof CURSOR_ACTIONS[number];

/** An installed theme. */
export interface CursorTheme {
  id: string;
  version: string;
  /** The rendering profile: which action states the theme draws and how. */
  profile: string;
  style: AgentCursorStyle;
  /** Actions the theme draws distinctly; others are drawn as `idle`. */
  actions: readonly CursorAction[];
  /** Where it came from: "builtin" or the file path. */
  source: string;
}

/** The id used until a session picks another. */
export const DEFAULT_THEME_ID = "cua.default";

/** Vector arrows drawn by the driver itself; every action shares the arrow, clicks add a pulse ring. */
const PROFILE = "cua-driver-vector-v1";

const BUILTIN: readonly CursorTheme[] = [
  {
    id: "cua.default",
    version: "1.0.0",
    profile: PROFILE,
    style: { fill: "#2f6bff", outline: "#ffffff", accent: "#7aa2ff", scale: 1 },
    actions: CURSOR_ACTIONS,
    source: "builtin",
  },
  {
    id: "cua.contrast",
    version: "1.0.0",
    profile: PROFILE,
    style: { fill: "#ffd400", outline: "#000000", accent: "#ff3b30", scale: 1.25 },
    actions: CURSOR_ACTIONS,
    source: "builtin",
  },
  {
    id: "cua.mono",
    version: "1.0.0",
    profile: PROFILE,
    style: { fill: "#111111", outline: "#ffffff", accent: "#888888", scale: 1 },
    actions: CURSOR_ACTIONS,
    source: "builtin",
  },
];

/** Where local themes are installed: `cursor-themes/` beside the config file. */
export function themesDir(): string {
  return join(dirname(configPath()), "cursor-themes");
}

const COLOUR = /^#[0-9a-f]{6}$/i;
const THEME_ID = /^[a-z0-9][a-z0-9._-]{0,199}$/i;

/** The built-in themes followed by every valid local theme file (a local id never replaces a built-in). */
export function installedThemes(dir: string = themesDir()): CursorTheme[] {
  const themes = [...BUILTIN];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".json"));
  } catch {
    return themes;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const theme = parseThemeFile(join(dir, entry.name));
    if (theme && !themes.some((t) => t.id === theme.id)) themes.push(theme);
  }
  return themes;
}

/** A theme by id, or null when none with that id is installed. */
export function findTheme(id: string, dir?: string): CursorTheme | null {
  return installedThemes(dir).find((t) => t.id === id) ?? null;
}

/**
 * Reads one theme file: `{id, version, profile?, fill, outline, accent, scale?}` with
 * `#rrggbb` colours; null when it is not one.
 */
function parseThemeFile(path: string): CursorTheme | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(Deno.readTextFileSync(path));
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null) return null;
  const { id, version, profile, fill, outline, accent, scale } = raw;
  if (typeof id !== "string" || !THEME_ID.test(id) || typeof version !== "string" || version === "") {
    return null;
  }
  if (![fill, outline, accent].every((c) => typeof c === "string" && COLOUR.test(c))) return null;
  const size = scale === undefined ? 1 : scale;
  if (typeof size !== "number" || !(size >= 0.5 && size <= 3)) return null;
  return {
    id,
    version,
    profile: typeof profile === "string" && profile !== "" ? profile : PROFILE,
    style: { fill: fill as string, outline: outline as string, accent: accent as string, scale: size },
    actions: CURSOR_ACTIONS,
    source: path,
  };
}
