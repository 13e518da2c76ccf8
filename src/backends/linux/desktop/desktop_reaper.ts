/**
 * A watchdog that cleans up an embedded desktop when its Deno process dies without
 * running `stop()` (SIGKILL, an uncaught error, a CI timeout).
 *
 * It is a `sh` in its own session reading process-group ids from a pipe. When the pipe
 * closes, that is, when the Deno process is gone, it kills those groups, removes the X
 * server's socket and lock if the server had to be killed, and removes the desktop's
 * temporary directory. A normal `stop()` sends `clear` first, so nothing is killed twice.
 *
 * @module
 */

// Deno SIGKILLs its direct children when it dies of an uncaught error, so the watching
// is done by a background subshell that outlives the `sh` Deno started. A background
// list gets /dev/null as stdin, hence the pipe is passed on as fd 3.
// dash's kill takes no "--"; a negative pid names a process group.
const REAPER_SCRIPT = `
exec 3<&0
(
  trap '' INT TERM HUP
  groups=
  display=
  while read -r line <&3; do
    case "$line" in
      clear) groups= ; display= ;;
      display\\ *) display=\${line#display } ;;
      *) groups="$groups $line" ;;
    esac
  done
  [ -z "$groups" ] && exit 0
  for g in $groups; do kill -TERM "-$g" 2>/dev/null; done
  sleep 1
  for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
  if [ -n "$display" ]; then
    lock="/tmp/.X$display-lock"
    owner=$(tr -d ' \\n' < "$lock" 2>/dev/null)
    for g in "" $groups; do
      [ "$owner" = "$g" ] && rm -f -- "$lock" "/tmp/.X11-unix/X$display"
    done
  fi
  [ -n "$1" ] && rm -rf -- "$1"
  exit 0
) &
exec 3<&-
wait
`;

/** The watchdog process; see the module documentation. */
export class DesktopReaper {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #closed = false;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
  }

  /** Starts the watchdog; `tempDir` is removed if it ever has to act. */
  static start(setsid: string, tempDir: string): DesktopReaper {
    const child = new Deno.Command(setsid, {
      args: ["sh", "-c", REAPER_SCRIPT, "cua-desktop-reaper", tempDir],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    return new DesktopReaper(child);
  }

  /** The watchdog's own pid. */
  get pid(): number {
    return this.#child.pid;
  }

  /** Lets the Deno process exit while the watchdog runs. */
  unref(): void {
    this.#child.unref();
  }

  /** Adds a process group for the watchdog to kill if the parent dies. */
  async watch(processGroup: number): Promise<void> {
    if (!this.#closed) await this.#writer.write(new TextEncoder().encode(`${processGroup}\n`));
  }

  /** Tells the watchdog the X display number, whose socket and lock it removes if the server was killed. */
  async watchDisplay(displayNumber: string): Promise<void> {
    if (!this.#closed) await this.#writer.write(new TextEncoder().encode(`display ${displayNumber}\n`));
  }

  /** Tells the watchdog everything is cleaned up, and waits for it to exit. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#writer.write(new TextEncoder().encode("clear\n"));
      await this.#writer.close();
    } catch {
      // The watchdog is already gone.
    }
    await this.#child.status;
  }

  /** For an `unload` handler: leaves the watchdog to do the cleanup once this process exits. */
  abandon(): void {
    this.#closed = true;
  }
}
