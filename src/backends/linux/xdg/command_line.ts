/**
 * Command-line strings without a shell: splitting into argv, quoting back for display,
 * and finding the program behind an `env K=V prog` prefix.
 *
 * @module
 */

/** Characters that `"..."` protects with a backslash (POSIX sh and the XDG Exec key agree). */
const DOUBLE_QUOTE_ESCAPABLE = new Set(['"', "`", "$", "\\"]);

/**
 * Splits a command line into argv the way a POSIX shell would quote it, without running
 * one: whitespace separates words; `"..."` groups a word and honours `\"`, `` \` ``,
 * `\$` and `\\`; `'...'` groups literally; a backslash outside quotes escapes the next
 * character. No variables, globs or operators are expanded.
 *
 * This covers the quoting rules of the XDG Desktop Entry `Exec` key, which are a subset.
 *
 * @param line The command line.
 * @returns argv, or `null` when a quote is left open.
 * @example
 * ```ts
 * splitCommandLine(`"/opt/My App/app" --name 'a b' x\\ y`);
 * // ["/opt/My App/app", "--name", "a b", "x y"]
 * ```
 */
export function splitCommandLine(line: string): string[] | null {
  const argv: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (inWord) argv.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) return null;
        const d = line[i];
        if (d === '"') break;
        if (d === "\\" && i + 1 < line.length && DOUBLE_QUOTE_ESCAPABLE.has(line[i + 1])) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) argv.push(word);
  return argv;
}

/**
 * Quotes one argument so {@linkcode splitCommandLine} gives it back unchanged.
 * Plain words are left bare.
 */
export function quoteArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  let out = '"';
  for (const c of arg) out += DOUBLE_QUOTE_ESCAPABLE.has(c) ? `\\${c}` : c;
  return out + '"';
}

/** Joins argv into one command-line string, quoting where needed. */
export function joinCommandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(" ");
}

/** The last path component of `path` (`/usr/bin/gedit` → `gedit`). */
export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** `env` options that take the following word as their value. */
const ENV_OPTIONS_WITH_VALUE = new Set(["-u", "--unset", "-C", "--chdir"]);

/**
 * Index in argv of the program that actually runs, skipping an `env` launcher, its
 * options and `K=V` assignments (`env GDK_BACKEND=x11 gedit` → index of `gedit`).
 *
 * @returns The index, or -1 when argv names no program.
 */
export function programIndex(argv: readonly string[]): number {
  let i = 0;
  if (argv.length > 0 && basename(argv[0]) === "env") {
    i = 1;
    while (i < argv.length && argv[i].startsWith("-")) {
      const option = argv[i++];
      if (option === "--") break;
      // Options whose value is the next word: -u NAME, -C DIR (and their long forms).
      if (ENV_OPTIONS_WITH_VALUE.has(option)) i++;
    }
  }
  while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i])) i++;
  return i < argv.length ? i : -1;
}

/**
 * The merge key list_apps uses to match a process to a desktop entry: the lowercase
 * basename of the program in argv (matches cua-driver's list_apps merge rule).
 *
 * @returns The key, or `null` when argv names no program.
 */
export function programKey(argv: readonly string[]): string | null {
  const i = programIndex(argv);
  if (i < 0) return null;
  const key = basename(argv[i]).toLowerCase();
  return key === "" ? null : key;
}
