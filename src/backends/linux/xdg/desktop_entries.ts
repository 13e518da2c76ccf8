/**
 * Installed applications from XDG Desktop Entry files (`*.desktop`), per the freedesktop.org
 * Desktop Entry and Base Directory specifications.
 *
 * @module
 */
import { readCallerFile } from "../../../kernel/safe_files.ts";
import { joinCommandLine, programKey, splitCommandLine } from "./command_line.ts";

/** Desktop entries are a few kilobytes; a larger file is not read. */
const DESKTOP_FILE_LIMIT = 1 << 20;

/** One launchable application described by a `.desktop` file. */
export interface DesktopEntry {
  /** Desktop-file id: the path below `applications/` with `/` → `-` and `.desktop` dropped. */
  id: string;
  /** Absolute path of the `.desktop` file. */
  path: string;
  /** `Name=` (the unlocalized value). */
  name: string;
  /** `Exec=` as argv with field codes removed; empty when the entry has no Exec. */
  argv: string[];
  /** `Exec=` without field codes, quoted back into one string; null without Exec. */
  launchPath: string | null;
  /** Lowercase basename of the Exec program (after `env K=V`), the list_apps merge key. */
  key: string | null;
  /** Modification time of the file, or null when unknown. */
  mtime: Date | null;
  /** `Terminal=true`: the program runs in a terminal and opens no window of its own. */
  terminal?: boolean;
}

/** The `[Desktop Entry]` keys this module reads. */
export interface DesktopEntryFields {
  type: string | null;
  name: string | null;
  exec: string | null;
  noDisplay: boolean;
  hidden: boolean;
  /** `Terminal=true`: the program runs inside a terminal, it opens no window of its own. */
  terminal?: boolean;
}

/** Undoes the escapes of a desktop-entry string value: `\s`, `\n`, `\t`, `\r`, `\\`. */
export function unescapeValue(value: string): string {
  const map: Record<string, string> = { s: " ", n: "\n", t: "\t", r: "\r", "\\": "\\" };
  return value.replace(/\\([sntr\\])/g, (_, c: string) => map[c]);
}

/**
 * Parses the `[Desktop Entry]` group of a `.desktop` file. Localized keys (`Name[de]`)
 * and other groups (`[Desktop Action ...]`) are ignored.
 *
 * @param text The file's content.
 * @returns The fields; all null/false when the group is missing.
 */
export function parseDesktopEntry(text: string): DesktopEntryFields {
  const fields: DesktopEntryFields = { type: null, name: null, exec: null, noDisplay: false, hidden: false };
  let inMain = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("[")) {
      inMain = line === "[Desktop Entry]";
      continue;
    }
    const eq = line.indexOf("=");
    if (!inMain || eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = unescapeValue(line.slice(eq + 1).trim());
    if (key === "Type") fields.type = value;
    else if (key === "Name") fields.name = value;
    else if (key === "Exec") fields.exec = value;
    else if (key === "NoDisplay") fields.noDisplay = value === "true";
    else if (key === "Hidden") fields.hidden = value === "true";
    else if (key === "Terminal") fields.terminal = value === "true";
  }
  return fields;
}

/**
 * Removes Exec field codes from argv: an argument that is only a code (`%U`) is dropped,
 * a code inside an argument (`--file=%f`) is cut out, and `%%` becomes `%`.
 *
 * @example
 * ```ts
 * stripFieldCodes(["firefox", "%u", "--icon=%i", "100%%"]); // ["firefox", "--icon=", "100%"]
 * ```
 */
export function stripFieldCodes(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    let hadCode = false;
    const stripped = arg.replace(/%(.?)/g, (_, c: string) => {
      if (c === "%") return "%";
      hadCode = true;
      return "";
    });
    if (!(hadCode && stripped === "")) out.push(stripped);
  }
  return out;
}

/**
 * Splits an `Exec=` value (already unescaped) into argv without field codes. A value with
 * an unbalanced quote falls back to splitting on whitespace.
 */
export function execArgv(exec: string): string[] {
  const argv = splitCommandLine(exec) ?? exec.split(/\s+/).filter((w) => w !== "");
  return stripFieldCodes(argv);
}

/**
 * The `applications/` directories to search, most important first: `$XDG_DATA_HOME`
 * (default `~/.local/share`), then each of `$XDG_DATA_DIRS` (default
 * `/usr/local/share:/usr/share`). Relative paths are ignored, as the spec requires.
 *
 * @param env Environment to read the XDG variables and `HOME` from.
 */
export function applicationDirs(env: Record<string, string | undefined>): string[] {
  const home = env.XDG_DATA_HOME?.startsWith("/")
    ? env.XDG_DATA_HOME
    : env.HOME?.startsWith("/")
    ? `${env.HOME}/.local/share`
    : null;
  const system = (env.XDG_DATA_DIRS || "/usr/local/share:/usr/share").split(":").filter((d) =>
    d.startsWith("/")
  );
  const dirs = [...(home === null ? [] : [home]), ...system].map((d) =>
    `${d.replace(/\/+$/, "")}/applications`
  );
  return [...new Set(dirs)];
}

/** Finds `.desktop` files below `dir`, as [desktop-file id, path] pairs. */
async function walk(dir: string, prefix: string, depth: number, out: [string, string][]): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return; // missing or unreadable directory
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const subdirs: Promise<void>[] = [];
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    let isDir = entry.isDirectory;
    if (entry.isSymlink) isDir = await Deno.stat(path).then((s) => s.isDirectory, () => false);
    if (isDir) {
      // Depth cap guards against symlink loops.
      if (depth < 8) subdirs.push(walk(path, `${prefix}${entry.name}-`, depth + 1, out));
    } else if (entry.name.endsWith(".desktop")) {
      out.push([`${prefix}${entry.name.slice(0, -".desktop".length)}`, path]);
    }
  }
  await Promise.all(subdirs);
}

async function loadEntry(id: string, path: string): Promise<DesktopEntry | null> {
  // Regular files only, opened without blocking: a FIFO named *.desktop must not stall list_apps.
  const [text, info] = await Promise.all([
    readCallerFile(path, { field: "desktop_entry", maxBytes: DESKTOP_FILE_LIMIT, followLinks: true })
      .then(({ bytes }) => new TextDecoder().decode(bytes), () => null),
    Deno.stat(path).catch(() => null),
  ]);
  if (text === null) return null;
  const fields = parseDesktopEntry(text);
  if (fields.type !== "Application" || fields.noDisplay || fields.hidden || !fields.name) return null;
  const argv = fields.exec === null ? [] : execArgv(fields.exec);
  return {
    id,
    path,
    name: fields.name,
    argv,
    launchPath: argv.length === 0 ? null : joinCommandLine(argv),
    key: programKey(argv),
    mtime: info?.mtime ?? null,
    terminal: fields.terminal === true,
  };
}

/**
 * Lists the visible applications installed in `dirs`. When several directories hold the
 * same desktop-file id, the first directory wins, even when its entry is hidden (that is
 * how a user hides a system app).
 *
 * @param dirs `applications/` directories, most important first (see {@linkcode applicationDirs}).
 * @returns Entries with `Type=Application`, a Name, and neither `NoDisplay` nor `Hidden`, sorted by id.
 */
export async function listDesktopEntries(dirs: readonly string[]): Promise<DesktopEntry[]> {
  const found = await Promise.all(dirs.map(async (dir) => {
    const out: [string, string][] = [];
    await walk(dir, "", 0, out);
    return out;
  }));
  const winners = new Map<string, string>();
  for (const list of found) {
    for (const [id, path] of list) if (!winners.has(id)) winners.set(id, path);
  }
  const entries = await Promise.all([...winners].map(([id, path]) => loadEntry(id, path)));
  return entries.filter((e): e is DesktopEntry => e !== null).sort((a, b) => a.id < b.id ? -1 : 1);
}
