/**
 * What launch_app never runs, in any permission mode: programs whose effect another guard
 * forbids. kill_app refuses a process the driver did not start, so the launcher refuses the
 * programs that kill; browser_prepare owns DevTools endpoints, so the launcher refuses the
 * flags that open one; and since a command string could do either, it refuses every
 * program that runs a command string (shells, `env`, `sudo`, a terminal's `-e`, an
 * interpreter's `-c`). A script file on disk is still a program the caller names; bounded
 * mode's manifest is the allow-list, this is the floor under every mode.
 *
 * Programs are named by the basename of their real path (`/bin/sh` is `dash` on Debian) and
 * by the name the caller used (`pkill` is a link to `pgrep`): either one refuses.
 *
 * @module
 */
import { DriverError } from "../../core/errors.ts";
import { basename } from "./command_line.ts";

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
]);

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
 * Throws when the program, with these arguments, would do what another guard forbids.
 *
 * @param paths The program's real path (symlinks resolved), and the path it was found at.
 * @param args Its arguments, without argv[0].
 * @throws {DriverError} `launch_refused`.
 */
export function refuseForbiddenProgram(paths: readonly string[], args: readonly string[]): void {
  for (const path of new Set(paths)) refuseProgramName(basename(path).toLowerCase(), args);
  refuseRemoteDebugging(args);
}

function refuseProgramName(name: string, args: readonly string[]): void {
  if (PROCESS_KILLERS.has(name)) {
    throw refused(
      `launch_app does not run ${JSON.stringify(name)}: it signals other processes`,
      "end a process the driver launched with kill_app",
    );
  }
  if (COMMAND_RUNNERS.has(name)) {
    throw refused(
      `launch_app does not run ${JSON.stringify(name)}: it runs other programs or command strings`,
      "pass the program itself as launch_path and its arguments as additional_arguments",
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
