/**
 * Console windows (conhost's ConsoleWindowClass, Wine's WineConsoleClass): their screen buffer
 * read with ReadConsoleOutputCharacterW and their input written as key records with
 * WriteConsoleInputW, both from inside the console (the driver attaches to it for the call and
 * detaches again). Key records carry any UTF-16 unit, need neither focus nor the foreground, and
 * are what a console reads: window messages posted to a console window lose every character a
 * key does not produce, and Wine's console drops SendInput's Unicode packets.
 *
 * A process is attached to one console at most: the driver's own console (when it has one) is
 * left for the call and attached again after it (through its parent process), and its standard
 * handles are put back as they were.
 *
 * @module
 */
import { wstr } from "../../../../ffi/_c.ts";
import {
  ATTACH_PARENT_PROCESS,
  FILE_SHARE_READ_WRITE,
  GENERIC_READ_WRITE,
  INPUT_RECORD,
  kernel32,
  OPEN_EXISTING,
  STD_HANDLES,
} from "../../../../ffi/windows/kernel32.ts";
import { handleValue } from "../../../../ffi/windows/_win.ts";
import { processSnapshot } from "../processes.ts";
import { className, isWindow, windowOwner } from "./hwnd.ts";

/** Most rows of the screen buffer read (from the top). */
const MAX_ROWS = 400;
/** Which process to attach to for each console window (found once). */
const clients = new Map<number, number>();

/** True for a console window (the window a console program's text shows in). */
export function isConsoleWindow(windowId: number): boolean {
  return isWindow(windowId) && /^(ConsoleWindowClass|WineConsoleClass)$/.test(className(windowId));
}

/**
 * Runs `body` attached to the console that `windowId` shows, then detaches and gives the driver
 * back its own console and standard handles. Null when no process of that console lets the
 * driver attach.
 */
export function withConsole<T>(windowId: number, body: () => T): T | null {
  const own = handleValue(kernel32.symbols.GetConsoleWindow());
  const saved = STD_HANDLES.map((which) => kernel32.symbols.GetStdHandle(which));
  try {
    const pid = attachTo(windowId);
    if (pid === null) return null;
    return body();
  } finally {
    kernel32.symbols.FreeConsole();
    if (own !== 0) kernel32.symbols.AttachConsole(ATTACH_PARENT_PROCESS);
    STD_HANDLES.forEach((which, i) => kernel32.symbols.SetStdHandle(which, saved[i]));
  }
}

/** Attaches to the console of `windowId`; the pid used, or null (detached) when none would do. */
function attachTo(windowId: number): number | null {
  const known = clients.get(windowId);
  const owner = windowOwner(windowId).pid;
  // The window's owner is the client on Windows and conhost under Wine (whose parent is the client).
  const table = known === undefined ? processSnapshot() : [];
  const candidates = known !== undefined ? [known] : [
    owner,
    ...table.filter((p) => p.pid === owner).map((p) => p.parentPid),
    ...table.filter((p) => p.parentPid === owner).map((p) => p.pid),
  ];
  for (const pid of candidates) {
    kernel32.symbols.FreeConsole();
    if (!pid || !kernel32.symbols.AttachConsole(pid)) continue;
    if (handleValue(kernel32.symbols.GetConsoleWindow()) === windowId) {
      clients.set(windowId, pid);
      return pid;
    }
  }
  clients.delete(windowId);
  kernel32.symbols.FreeConsole();
  return null;
}

function openConsole(name: "CONIN$" | "CONOUT$"): Deno.PointerValue {
  const h = kernel32.symbols.CreateFileW(
    wstr(name),
    GENERIC_READ_WRITE,
    FILE_SHARE_READ_WRITE,
    null,
    OPEN_EXISTING,
    0,
    null,
  );
  return h === null || BigInt(Deno.UnsafePointer.value(h)) === 0xffffffffffffffffn ? null : h;
}

/** What a console shows: its buffer's rows (trailing blanks cut, trailing empty rows dropped) and its cursor. */
export interface ConsoleScreen {
  text: string;
  cursor: { x: number; y: number };
}

/** Reads the screen buffer of the console `windowId` shows; null when it cannot be read. */
export function readConsole(windowId: number): ConsoleScreen | null {
  return withConsole(windowId, () => {
    const out = openConsole("CONOUT$");
    if (!out) return null;
    try {
      const info = new Uint8Array(22);
      if (!kernel32.symbols.GetConsoleScreenBufferInfo(out, info)) return null;
      const view = new DataView(info.buffer);
      const columns = view.getInt16(0, true), rows = Math.min(view.getInt16(2, true), MAX_ROWS);
      const cells = new Uint16Array(columns * rows);
      const read = new Uint32Array(1);
      if (!kernel32.symbols.ReadConsoleOutputCharacterW(out, cells, cells.length, 0, read)) return null;
      return {
        text: screenText(cells.subarray(0, read[0]), columns),
        cursor: { x: view.getInt16(4, true), y: view.getInt16(6, true) },
      };
    } finally {
      kernel32.symbols.CloseHandle(out);
    }
  }) ?? null;
}

/** The rows of a screen buffer as text: blanks at row ends cut, empty rows at the end dropped. */
export function screenText(cells: Uint16Array, columns: number): string {
  const rows: string[] = [];
  for (let at = 0; at < cells.length; at += columns) {
    let row = "";
    const slice = cells.subarray(at, Math.min(at + columns, cells.length));
    for (let i = 0; i < slice.length; i += 4096) row += String.fromCharCode(...slice.subarray(i, i + 4096));
    rows.push(row.replace(/[ \0]+$/, ""));
  }
  while (rows.length && rows[rows.length - 1] === "") rows.pop();
  return rows.join("\n");
}

/** One key of a console's input: a virtual key (0 for a character alone), the UTF-16 unit it gives, its modifier bits. */
export interface ConsoleKey {
  vk: number;
  scan: number;
  unit: number;
  controlState: number;
}

/** KEY_EVENT records for keys, each pressed and released. */
export function keyRecords(keys: readonly ConsoleKey[]): Uint8Array<ArrayBuffer> {
  const records = new Uint8Array(INPUT_RECORD.size * keys.length * 2);
  const view = new DataView(records.buffer);
  keys.forEach((key, i) => {
    for (const down of [1, 0]) {
      const at = (i * 2 + (down ? 0 : 1)) * INPUT_RECORD.size;
      view.setUint16(at, INPUT_RECORD.KEY_EVENT, true);
      view.setInt32(at + 4, down, true);
      view.setUint16(at + 8, 1, true);
      view.setUint16(at + 10, key.vk, true);
      view.setUint16(at + 12, key.scan, true);
      view.setUint16(at + 14, key.unit, true);
      view.setUint32(at + 16, key.controlState, true);
    }
  });
  return records;
}

/** The keys that type `text` into a console: one per UTF-16 unit, a line break as Enter. */
export function textKeys(text: string): ConsoleKey[] {
  const keys: ConsoleKey[] = [];
  for (const unit of text.replaceAll("\r\n", "\n")) {
    for (let i = 0; i < unit.length; i++) {
      const code = unit.charCodeAt(i);
      keys.push(
        code === 0x0a || code === 0x0d
          ? { vk: 0x0d, scan: 0x1c, unit: 0x0d, controlState: 0 }
          : code === 0x09
          ? { vk: 0x09, scan: 0x0f, unit: 0x09, controlState: 0 }
          : { vk: 0, scan: 0, unit: code, controlState: 0 },
      );
    }
  }
  return keys;
}

/** Writes keys into the input buffer of the console `windowId` shows; how many went in (0 when it cannot be reached). */
export function writeConsoleKeys(windowId: number, keys: readonly ConsoleKey[]): number {
  if (keys.length === 0) return 0;
  return withConsole(windowId, () => {
    const input = openConsole("CONIN$");
    if (!input) return 0;
    try {
      const written = new Uint32Array(1);
      const records = keyRecords(keys);
      if (!kernel32.symbols.WriteConsoleInputW(input, records, keys.length * 2, written)) return 0;
      return Math.floor(written[0] / 2);
    } finally {
      kernel32.symbols.CloseHandle(input);
    }
  }) ?? 0;
}
