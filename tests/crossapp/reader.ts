/**
 * The independent AT-SPI reader (`reader.py`), one fresh Debian python3 process per
 * query (libatspi can deadlock inside a long-lived client), sharing no code with the
 * driver.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { desktopEnv } from "../_helpers/desktop_env.ts";
import { FIXTURE_PYTHON } from "../_helpers/journal_process.ts";

const SCRIPT = fileURLToPath(new URL("./reader.py", import.meta.url));

/** One object as the reader sees it. */
export interface ReadNode {
  role: string;
  name: string;
  depth: number;
  showing: boolean;
  visible: boolean;
  enabled: boolean;
  checked: boolean;
  selected: boolean;
  focused: boolean;
  editable: boolean;
  /** Number of actions. */
  actions: number;
  ifaces: string[];
  /** AT-SPI's own screen extents [x, y, width, height], or null without a Component. */
  ext: [number, number, number, number] | null;
  /** Text and value, from `find` only. */
  text?: string | null;
  value?: number | null;
}

async function read(args: string[], timeoutMs = 120_000): Promise<unknown> {
  const output = await new Deno.Command(FIXTURE_PYTHON, {
    args: [SCRIPT, ...args],
    env: desktopEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim();
  if (!output.success || text === "") {
    throw new Error(
      `reader.py ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr).slice(-500)}`,
    );
  }
  return JSON.parse(text);
}

/** The app's on-screen objects. */
export function walk(pid: number): Promise<ReadNode[]> {
  return read(["walk", String(pid)]) as Promise<ReadNode[]>;
}

/** The first object of `role` (named `name` when given), or null. */
export function find(pid: number, role: string, name = ""): Promise<ReadNode | null> {
  return read(["find", String(pid), role, name], 60_000) as Promise<ReadNode | null>;
}

/** Every on-screen object of `role` (named `name` when given), top to bottom, with text, caret and value. */
export function states(
  pid: number,
  role: string,
  name = "",
): Promise<(ReadNode & { caret: number | null })[]> {
  return read(["states", String(pid), role, name], 60_000) as Promise<
    (ReadNode & { caret: number | null })[]
  >;
}

/** The text (or name) of every object of `role`. */
export function texts(pid: number, role: string): Promise<string[]> {
  return read(["texts", String(pid), role], 60_000) as Promise<string[]>;
}
