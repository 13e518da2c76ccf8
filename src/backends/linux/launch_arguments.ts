/**
 * Arguments that make a launched app load or run code the caller chose: toolkit module and
 * plugin options (`--gtk-module`, Qt's `-platformpluginpath`), browser options that run a
 * helper command or load an extension, LibreOffice macro URLs and UNO sockets, loader
 * variables passed as `NAME=value`, and any argument whose value is a native library or
 * program file (its content is checked, not its name). launch_app refuses them outside the
 * unrestricted mode: a grant to run an app is not a grant to run code inside it.
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import { isElf } from "./elf_needed.ts";

/** Variables that change which code a program loads (or a toolkit's plugins and modules). */
const CODE_VARIABLES =
  /^(LD_|DYLD_)|(PATH|PRELOAD|MODULES?|MODULE_DIR|MODULE_FILE|PLUGINS?)$|^(GTK_|GDK_|GIO_|GST_|QT_|QML_|QML2_|KDE_|PYTHON|PERL|RUBY|NODE_|LUA_|TCL|TK_|JAVA_|_JAVA|MOZ_|ELECTRON_|CHROME_|SAL_|URE_|UNO_)|^(BASH_ENV|ENV)$/;

/** Options (with `-` or `--`, value after `=` or in the next argument) that load or run code. */
const CODE_OPTIONS = new RegExp(
  "^--?(" + [
    // GTK and GLib
    "gtk-modules?",
    "g-fatal-warnings-module",
    // Qt
    "platformpluginpath",
    "plugin",
    "qmljsdebugger",
    "qmljsdebuggerport",
    // Chromium and Electron
    "load-extension",
    "load-and-launch-app",
    "disable-extensions-except",
    "renderer-cmd-prefix",
    "utility-cmd-prefix",
    "gpu-launcher",
    "gpu-cmd-prefix",
    "ppapi-plugin-launcher",
    "ppapi-cmd-prefix",
    "browser-subprocess-path",
    "register-pepper-plugins",
    "nacl-gdb",
    "inspect",
    "inspect-brk",
    "inspect-port",
    "js-flags",
    "require",
    "preload",
    // Firefox
    "chrome",
    "jsdebugger",
    "install-extension",
    // LibreOffice
    "accept",
    // Generic spellings
    "load",
    "load-module",
    "load-modules",
    "load-library",
    "load-plugin",
    "module",
    "modules",
    "module-path",
    "plugin-path",
    "plugin-dir",
    "extension",
    "extensions",
    "extension-dir",
    "extensions-dir",
    "script",
    "exec",
    "eval",
  ].join("|") + ")(=|$)",
  "i",
);

/** URL schemes that run code (LibreOffice macros and scripts). */
const CODE_URLS = /^\s*(macro|vnd\.sun\.star\.script|vnd\.sun\.star\.cmd|uno|service|slot|javascript):/i;

/** File names of native libraries and loadable modules. */
const LIBRARY_NAME = /\.(so(\.[0-9]+)*|dylib|dll|node|bundle|pyd)$/i;

function refused(argument: string, why: string): DriverError {
  return new DriverError(
    "launch_refused",
    `launch_app does not pass ${JSON.stringify(argument)}: ${why}`,
    {
      hint:
        "arguments may name files and options, not code for the app to load; the unrestricted mode lifts this",
      field: "additional_arguments",
    },
  );
}

/** The local path a value names (a `file:` URL's path, or the value itself), or null. */
function localPath(value: string, cwd: string): string | null {
  let path = value;
  if (/^file:/i.test(value)) {
    try {
      path = decodeURIComponent(new URL(value).pathname);
    } catch {
      return null;
    }
  }
  if (path === "" || path.includes("\0")) return null;
  return path.startsWith("/") ? path : `${cwd}/${path}`;
}

/** True when the value names an existing file that starts like a native library or program. */
function namesNativeCode(value: string, cwd: string): boolean {
  const path = localPath(value, cwd);
  if (path === null) return false;
  try {
    const file = Deno.openSync(path, { read: true });
    try {
      if (!file.statSync().isFile) return false;
      const head = new Uint8Array(4);
      file.readSync(head);
      // ELF, Mach-O (both byte orders, fat), PE.
      return isElf(head) ||
        [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(
          new DataView(head.buffer).getUint32(0),
        ) || (head[0] === 0x4d && head[1] === 0x5a);
    } finally {
      file.close();
    }
  } catch {
    return false;
  }
}

/**
 * Throws when an argument would make the app load or run code: a code-loading option, a
 * macro URL, a loader variable assignment, or a value (whole, or after an option's `=`)
 * that names a library file or a file with native code in it.
 *
 * @param args The caller's arguments (not an installed desktop entry's own).
 * @param cwd Where the app resolves relative paths (the driver's working directory).
 * @throws {DriverError} `launch_refused` naming `additional_arguments`.
 */
export function refuseCodeLoading(args: readonly string[], cwd = Deno.cwd()): void {
  for (const arg of args) {
    const trimmed = arg.trim();
    if (CODE_OPTIONS.test(trimmed)) throw refused(arg, "it makes the app load or run code");
    if (CODE_URLS.test(trimmed)) throw refused(arg, "it runs a macro or script");
    const values = [trimmed];
    const eq = trimmed.indexOf("=");
    if (eq > 0) {
      const name = trimmed.slice(0, eq).replace(/^-+/, "");
      if (!trimmed.startsWith("-") && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && CODE_VARIABLES.test(name)) {
        throw refused(arg, "it sets a variable that changes which code a program loads");
      }
      values.push(trimmed.slice(eq + 1));
    }
    for (const value of values) {
      if (LIBRARY_NAME.test(value) || namesNativeCode(value, cwd)) {
        throw refused(arg, "it names a native library or program for the app to load");
      }
    }
  }
}
