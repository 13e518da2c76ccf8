/**
 * What launch_app runs, by permission mode. launch_app is for GUI applications: in standard
 * mode the program must be an installed desktop entry's program or an executable that links a
 * windowing library (gui_program.ts); in bounded mode the manifest's list takes that place.
 * In both, programs whose job is to run other programs are refused whatever they are called:
 * shells, wrappers (`env`, `time`, `setpriv`, `prlimit` ...), interpreters, build and VCS tools
 * that run hooks or aliases (`git`, `make`, `tar --checkpoint-action`), and X clients that
 * reconfigure the desktop rather than open a window; so are arguments that make an app load
 * code (launch_arguments.ts). Only the unrestricted mode lifts these. In every mode it refuses
 * the programs that kill (kill_app refuses a process the driver did not start) and the flags
 * that open a DevTools endpoint (browser_prepare owns those).
 *
 * Programs are named by the basename of their real path (`/bin/sh` is `dash` on Debian) and
 * by the name the caller used (`pkill` is a link to `pgrep`): either one refuses.
 *
 * @module
 */
import { DriverError } from "../../../ports/errors.ts";
import { basename } from "./command_line.ts";
import { linksWindowingLibrary } from "../gui_program.ts";
import { refuseCodeLoading } from "../launch_arguments.ts";

/** The caller's permission mode, as the launch guard applies it. */
export type LaunchMode = "standard" | "bounded" | "unrestricted";

/** What the guard knows about a launch besides the program and its argv. */
export interface GuardContext {
  mode: LaunchMode;
  /**
   * True when the launch runs an installed desktop entry's Exec line (the system's own
   * configuration, not a file the caller wrote): its program may be an interpreter running
   * the entry's script.
   */
  installed: boolean;
  /** True when the program is one an installed desktop entry runs (an installed GUI app). */
  installedProgram?: boolean;
  /** The arguments the caller chose (an installed entry's own Exec arguments are not among them). */
  callerArgs: readonly string[];
  /** Where the app resolves relative paths. */
  cwd?: string;
}

/** Programs that end or signal other processes (kill_app's job, under its ownership check). */
const PROCESS_KILLERS = new Set([
  "kill",
  "pkill",
  "killall",
  "killall5",
  "skill",
  "snice",
  "xkill",
  "systemctl",
  "loginctl",
  "xdotool",
  "wmctrl",
]);

/** Programs whose job is to run another program or a command string. */
const COMMAND_RUNNERS = new Set([
  "sh",
  "dash",
  "bash",
  "rbash",
  "zsh",
  "ksh",
  "ksh93",
  "mksh",
  "pdksh",
  "yash",
  "csh",
  "tcsh",
  "fish",
  "ash",
  "busybox",
  "toybox",
  "env",
  "xargs",
  "nohup",
  "setsid",
  "timeout",
  "nice",
  "ionice",
  "chrt",
  "taskset",
  "stdbuf",
  "sudo",
  "su",
  "doas",
  "pkexec",
  "runuser",
  "script",
  "expect",
  "flock",
  "chroot",
  "unshare",
  "nsenter",
  "watch",
  "parallel",
  "at",
  "batch",
  "systemd-run",
  "start-stop-daemon",
  "gdb",
  "strace",
  "ltrace",
  "find",
  "make",
  "sed",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "dbus-send",
  "gdbus",
  "dbus-launch",
  "dbus-run-session",
  "xinit",
  "startx",
  "ssh",
  // Wrappers that run the program named in their arguments.
  "time",
  "setpriv",
  "prlimit",
  "capsh",
  "setarch",
  "linux32",
  "linux64",
  "numactl",
  "cgexec",
  "chpst",
  "daemonize",
  "fakeroot",
  "fakechroot",
  "proot",
  "firejail",
  "bwrap",
  "systemd-nspawn",
  "schroot",
  "trickle",
  "torsocks",
  "proxychains",
  "proxychains4",
  "valgrind",
  "perf",
  "catchsegv",
  "xvfb-run",
  "ssh-agent",
  "gpg-agent",
  "dtach",
  "tmux",
  "screen",
  "abduco",
  "run-parts",
  "runcon",
  "sg",
  "newgrp",
  "crontab",
  "rlwrap",
  "unbuffer",
  "faketime",
  "eatmydata",
  "ld.so",
  "qemu-x86_64",
  "qemu-i386",
  "wine",
  "wine64",
  // Build, package and VCS tools: hooks, aliases and actions run commands.
  "git",
  "hg",
  "svn",
  "bzr",
  "fossil",
  "tar",
  "zip",
  "cpio",
  "rsync",
  "scp",
  "sftp",
  "gmake",
  "ninja",
  "cmake",
  "meson",
  "scons",
  "ant",
  "mvn",
  "gradle",
  "rake",
  "bundle",
  "npm",
  "npx",
  "yarn",
  "pnpm",
  "pip",
  "pip3",
  "cargo",
  "go",
  "dpkg",
  "apt",
  "apt-get",
  "man",
  "less",
  "more",
  "ed",
  "dc",
  // X clients that reconfigure the display for every client instead of opening a window.
  "xhost",
  "xauth",
  "xset",
  "xrandr",
  "xinput",
  "xmodmap",
  "setxkbmap",
  "xkbcomp",
  "xrdb",
  "xsetroot",
  "xsel",
  "xclip",
]);

/** Names of interpreters and program loaders: their job is to run code from a file or an argument. */
const INTERPRETER_NAMES =
  /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|irb[0-9.]*|node(js)?|deno|bun|lua(jit)?[0-9.]*|php[0-9.]*|tclsh[0-9.]*|wish[0-9.]*|expectk|java|jshell|mono|dotnet|rscript|r|julia|guile[0-9.]*|gjs|racket|sbcl|clisp|ecl|erl|escript|elixir|iex|ocaml|runghc|runhaskell|ghci|scala|groovy|kotlin|pwsh|osh|ld-linux.*\.so.*|ld-.*\.so.*|qemu-.*)$/;

/** Interpreters, and the options that hand them code inline instead of a script file. */
const INTERPRETERS: readonly [RegExp, RegExp][] = [
  [/^python[0-9.]*$|^pypy[0-9.]*$/, /^-[A-Za-z]*[cm]|^--command/],
  [/^perl[0-9.]*$/, /^-[A-Za-z]*[eEx]|^-M/],
  [/^ruby[0-9.]*$|^irb/, /^-[A-Za-z]*e/],
  [/^node(js)?$|^deno$|^bun$/, /^-[A-Za-z]*[ep]|^--(eval|print|import|require)|^(eval|run|x|repl)$/],
  [/^lua(jit)?[0-9.]*$/, /^-[A-Za-z]*[el]/],
  [/^php[0-9.]*$/, /^-[A-Za-z]*[rBRE]/],
  [/^g?vim?$|^vim\.|^nvim$|^view$|^ex$/, /^\+|^-(c|S|s|u|U|-cmd)$/],
  [/^emacs/, /^--?(eval|execute|funcall|load|script|f|l)\b|^-batch/],
];

/**
 * Terminal emulators and the options after which they run a command line. For terminals
 * that take the command as their first plain word (kitty, foot), any plain word counts.
 */
const TERMINALS: readonly [RegExp, RegExp][] = [
  [/^(x-terminal-emulator|xterm|uxterm|lxterm|koi8rxterm|rxvt.*|urxvt.*|st|terminology|lxterminal)$/, /^-e$/],
  [
    /^(gnome-terminal.*|mate-terminal.*|tilix|terminator|xfce4-terminal.*|konsole|qterminal|sakura)$/,
    /^(-e|-x|--|--command(=.*)?|--execute(=.*)?|-c|--exec(=.*)?)$/,
  ],
  [/^(alacritty|wezterm|guake|tilda|cool-retro-term|roxterm)$/, /^(-e|--command(=.*)?|--|start|-x)$/],
  [/^(kitty|foot|footclient)$/, /^[^-]|^--$/],
];

/** Options that open a browser's remote-debugging or automation endpoint. */
const BROWSER_DEBUG =
  /^-+\s*(remote-debugging|remote-allow-|start-debugger-server|marionette|remote-debugger)/i;

function refused(message: string, hint: string, field = "launch_path"): DriverError {
  return new DriverError("launch_refused", message, { hint, field });
}

/**
 * Throws when argv asks a browser for a DevTools or automation endpoint: that is
 * browser_prepare's job. Whitespace around the option does not hide it (Chromium trims it).
 *
 * @throws {DriverError} `launch_refused` naming `additional_arguments`.
 */
export function refuseRemoteDebugging(args: readonly string[]): void {
  const flag = args.find((arg) => BROWSER_DEBUG.test(arg.trim()));
  if (flag !== undefined) {
    throw refused(
      `launch_app does not pass ${JSON.stringify(flag)}`,
      "call browser_prepare to launch or attach a browser with a DevTools endpoint",
      "additional_arguments",
    );
  }
}

/**
 * Throws when the program, with these arguments, is not one launch_app runs in this mode.
 *
 * @param paths The program's real path (symlinks resolved), and the path it was found at.
 * @param args Its arguments, without argv[0].
 * @throws {DriverError} `launch_refused`.
 */
export function refuseForbiddenProgram(
  paths: readonly string[],
  args: readonly string[],
  context: GuardContext = { mode: "standard", installed: false, callerArgs: args },
): void {
  const names = [...new Set(paths)].map((path) => basename(path).toLowerCase());
  const killer = names.find((name) => PROCESS_KILLERS.has(name));
  if (killer !== undefined) {
    throw refused(
      `launch_app does not run ${JSON.stringify(killer)}: it signals other processes`,
      "end a process the driver launched with kill_app",
    );
  }
  refuseRemoteDebugging(args);
  if (context.mode === "unrestricted") return;
  for (const name of names) refuseProgramName(name, args, context.installed);
  refuseCodeLoading(context.callerArgs, context.cwd);
  const installedApp = context.installed || context.installedProgram === true;
  if (context.mode === "standard" && !installedApp && !linksWindowingLibrary(paths[0])) {
    throw refused(
      `launch_app launches GUI applications; ${JSON.stringify(paths[0])} is neither an installed app ` +
        "(a desktop entry's program) nor a program that links a windowing toolkit",
      "call list_apps for installed apps; a bounded-mode manifest can list other programs",
    );
  }
}

function refuseProgramName(name: string, args: readonly string[], installed: boolean): void {
  if (COMMAND_RUNNERS.has(name)) {
    throw refused(
      `launch_app does not run ${JSON.stringify(name)}: it runs other programs or command strings`,
      "launch the GUI app itself, with its arguments in additional_arguments",
    );
  }
  if (!installed && INTERPRETER_NAMES.test(name)) {
    throw refused(
      `launch_app does not run ${JSON.stringify(name)}: it runs code from its arguments`,
      "launch an installed app (list_apps) rather than an interpreter",
    );
  }
  for (const [program, inline] of INTERPRETERS) {
    if (!program.test(name)) continue;
    const option = args.find((arg) => inline.test(arg));
    if (option !== undefined) {
      throw refused(
        `launch_app does not run ${JSON.stringify(name)} with ${JSON.stringify(option)}: it runs inline code`,
        "pass a script file as the first additional argument, without inline code options",
        "additional_arguments",
      );
    }
  }
  for (const [terminal, command] of TERMINALS) {
    if (!terminal.test(name)) continue;
    const option = args.find((arg) => command.test(arg));
    if (option !== undefined) {
      throw refused(
        `launch_app does not run ${JSON.stringify(name)} with ${
          JSON.stringify(option)
        }: it runs a command line`,
        "launch the terminal without a command, then type into it",
        "additional_arguments",
      );
    }
  }
}
