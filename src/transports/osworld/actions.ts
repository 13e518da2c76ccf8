/**
 * OSWorld's actions on the driver's own tools: the pyautogui calls of `/execute` and the
 * `computer_13` actions of `/computer_13`, each one registry call on the desktop (screen pixels,
 * the user's pointer, keys to the focused window), in order. A script is checked whole first
 * (every function and key known) so that nothing of a refused script runs; a call that fails
 * stops the rest.
 *
 * @module
 */
import type { CallOptions, ToolHost } from "../../kernel/registry.ts";
import type { ToolResult } from "../../kernel/result.ts";
import { parsePress } from "../../engine/key_names.ts";
import type { PyCall, PyValue } from "./pyautogui.ts";

/** A driver call an action becomes. */
export interface DriverCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Why an action cannot be mapped (before anything runs). */
export class UnsupportedActionError extends Error {
  override name = "UnsupportedActionError";
}

const DESKTOP = { target: { kind: "desktop" }, coordinate_space: "screen" } as const;
const BUTTONS: Record<string, string> = { left: "left", right: "right", middle: "middle", primary: "left" };

function num(value: PyValue | undefined, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new UnsupportedActionError(`${what} must be a number`);
  }
  return value;
}

function str(value: PyValue | undefined, what: string): string {
  if (typeof value !== "string") throw new UnsupportedActionError(`${what} must be a string`);
  return value;
}

function button(value: PyValue | undefined): string {
  const name = value === undefined ? "left" : str(value, "button");
  const mapped = BUTTONS[name];
  if (!mapped) throw new UnsupportedActionError(`button ${JSON.stringify(name)} is not supported`);
  return mapped;
}

/** The point a pointer call names (`x`, `y` positionally or by keyword), or null for the cursor. */
function pointOf(call: PyCall): { x: number; y: number } | null {
  const x = call.kwargs.x ?? call.args[0], y = call.kwargs.y ?? call.args[1];
  if ((x === undefined || x === null) && (y === undefined || y === null)) return null;
  return { x: num(x, "x"), y: num(y, "y") };
}

/** pyautogui's key names the driver's key names do not already read (`win`, `command`, ...). */
const KEY_NAMES: Record<string, string> = {
  win: "super",
  winleft: "super",
  winright: "super",
  command: "super",
};

/**
 * A pyautogui key name in the driver's words, checked now (a script with an unknown key runs nothing).
 *
 * @throws {UnsupportedActionError} for a name the driver does not know.
 */
function key(name: string): string {
  const mapped = KEY_NAMES[name.toLowerCase()] ?? name;
  try {
    parsePress(mapped, []);
  } catch {
    throw new UnsupportedActionError(`unknown key ${JSON.stringify(name)}`);
  }
  return mapped;
}

/**
 * The driver calls of one pyautogui call. `cursor` reads the pointer for calls without a point.
 *
 * @throws {UnsupportedActionError} for arguments the driver has no mapping for.
 */
export function pyCallToDriver(call: PyCall): (cursor: { x: number; y: number }) => DriverCall[] {
  const point = ["moveTo", "click", "doubleClick", "tripleClick", "rightClick", "middleClick", "dragTo"]
      .includes(call.fn)
    ? pointOf(call)
    : null;
  const clickOf = (count: number, which: string) => (cursor: { x: number; y: number }) => [{
    tool: "click",
    args: { ...DESKTOP, ...(point ?? cursor), button: which, count },
  }];
  switch (call.fn) {
    case "moveTo":
      return (cursor) =>
        point && (point.x !== cursor.x || point.y !== cursor.y) || point
          ? [{ tool: "move_cursor", args: { ...DESKTOP, ...point! } }]
          : [];
    case "moveRel": {
      const dx = num(call.kwargs.xOffset ?? call.args[0], "xOffset"),
        dy = num(call.kwargs.yOffset ?? call.args[1], "yOffset");
      return (cursor) => [{ tool: "move_cursor", args: { ...DESKTOP, x: cursor.x + dx, y: cursor.y + dy } }];
    }
    case "click": {
      const clicks = call.kwargs.clicks === undefined ? 1 : num(call.kwargs.clicks, "clicks");
      if (!Number.isInteger(clicks) || clicks < 1 || clicks > 3) {
        throw new UnsupportedActionError("clicks must be 1, 2 or 3");
      }
      return clickOf(clicks, button(call.kwargs.button));
    }
    case "doubleClick":
      return clickOf(2, button(call.kwargs.button));
    case "tripleClick":
      return clickOf(3, button(call.kwargs.button));
    case "rightClick":
      return clickOf(1, "right");
    case "middleClick":
      return clickOf(1, "middle");
    case "dragTo": {
      if (!point) throw new UnsupportedActionError("dragTo needs x and y");
      if (button(call.kwargs.button) !== "left") {
        throw new UnsupportedActionError("dragTo drags with the left button");
      }
      return (cursor) => [{
        tool: "drag",
        args: { ...DESKTOP, from_x: cursor.x, from_y: cursor.y, to_x: point.x, to_y: point.y },
      }];
    }
    case "scroll":
    case "vscroll":
    case "hscroll": {
      const clicks = num(call.kwargs.clicks ?? call.args[0], "clicks");
      const x = call.kwargs.x ?? call.args[1], y = call.kwargs.y ?? call.args[2];
      const at = x === undefined || x === null ? null : { x: num(x, "x"), y: num(y, "y") };
      if (clicks === 0) return () => [];
      const horizontal = call.fn === "hscroll";
      // pyautogui: positive scrolls up (hscroll: right).
      const direction = horizontal ? (clicks > 0 ? "right" : "left") : (clicks > 0 ? "up" : "down");
      const amount = Math.min(50, Math.max(1, Math.round(Math.abs(clicks))));
      return (cursor) => [{ tool: "scroll", args: { ...DESKTOP, ...(at ?? cursor), direction, amount } }];
    }
    case "typewrite":
    case "write": {
      const message = call.kwargs.message ?? call.args[0];
      if (Array.isArray(message)) {
        const keys = message.map(key);
        return () => keys.map((k) => ({ tool: "press_key", args: { target: DESKTOP.target, key: k } }));
      }
      const text = str(message, "message");
      return () => text === "" ? [] : [{ tool: "type_text", args: { target: DESKTOP.target, text } }];
    }
    case "press": {
      const keys = call.kwargs.keys ?? call.args[0];
      const list = (Array.isArray(keys) ? keys : [str(keys, "keys")]).map(key);
      const presses = call.kwargs.presses === undefined ? 1 : num(call.kwargs.presses, "presses");
      if (!Number.isInteger(presses) || presses < 1 || presses > 100) {
        throw new UnsupportedActionError("presses must be 1 to 100");
      }
      return () =>
        Array.from(
          { length: presses },
          () => list.map((k) => ({ tool: "press_key", args: { target: DESKTOP.target, key: k } })),
        )
          .flat();
    }
    case "hotkey": {
      const keys = call.args.map((k) => key(str(k, "key")));
      if (keys.length === 0) throw new UnsupportedActionError("hotkey needs keys");
      return () => [
        keys.length === 1
          ? { tool: "press_key", args: { target: DESKTOP.target, key: keys[0] } }
          : { tool: "hotkey", args: { target: DESKTOP.target, keys } },
      ];
    }
    case "sleep": {
      const seconds = num(call.args[0], "seconds");
      if (seconds < 0 || seconds > 60) throw new UnsupportedActionError("time.sleep takes 0 to 60 seconds");
      return () => [{ tool: "sleep", args: { ms: seconds * 1000 } }];
    }
  }
  throw new UnsupportedActionError(`${call.fn} is not supported`);
}

/** A computer_13 action as the pyautogui call OSWorld's own controller would make of it. */
export function computer13ToPy(action: { action_type?: unknown; parameters?: unknown }): PyCall | null {
  const type = String(action.action_type ?? "");
  const p = (action.parameters ?? {}) as Record<string, PyValue>;
  if (typeof p !== "object" || Array.isArray(p)) {
    throw new UnsupportedActionError("parameters must be an object");
  }
  const pick = (...names: string[]) =>
    Object.fromEntries(names.filter((n) => p[n] !== undefined).map((n) => [n, p[n]]));
  switch (type) {
    case "WAIT":
    case "DONE":
    case "FAIL":
      return null;
    case "MOVE_TO":
      return { fn: "moveTo", args: [], kwargs: pick("x", "y") };
    case "CLICK":
      return {
        fn: "click",
        args: [],
        kwargs: {
          ...pick("x", "y", "button"),
          ...(p.num_clicks !== undefined ? { clicks: p.num_clicks } : {}),
        },
      };
    case "RIGHT_CLICK":
      return { fn: "rightClick", args: [], kwargs: pick("x", "y") };
    case "DOUBLE_CLICK":
      return { fn: "doubleClick", args: [], kwargs: pick("x", "y") };
    case "DRAG_TO":
      return { fn: "dragTo", args: [], kwargs: pick("x", "y") };
    case "SCROLL":
      if (p.dx === undefined && p.dy === undefined) throw new UnsupportedActionError("SCROLL needs dx or dy");
      return { fn: p.dy !== undefined ? "vscroll" : "hscroll", args: [p.dy ?? p.dx], kwargs: {} };
    case "TYPING":
      return { fn: "typewrite", args: [], kwargs: { message: p.text } };
    case "PRESS":
      return { fn: "press", args: [], kwargs: { keys: p.key } };
    case "HOTKEY":
      if (!Array.isArray(p.keys)) throw new UnsupportedActionError("HOTKEY needs a list of keys");
      return { fn: "hotkey", args: p.keys, kwargs: {} };
    case "MOUSE_DOWN":
    case "MOUSE_UP":
    case "KEY_DOWN":
    case "KEY_UP":
      throw new UnsupportedActionError(`${type} is not supported (no held input on the desktop pointer)`);
  }
  throw new UnsupportedActionError(`unknown action_type ${JSON.stringify(type)}`);
}

/** The outcome of running calls: how many ran, and the failure that stopped them. */
export interface RunOutcome {
  ran: number;
  failed?: { tool: string; code: string; message: string };
}

/** Runs mapped calls in order through the host; the first failure stops the rest. */
export async function runMapped(
  host: ToolHost,
  plans: ((cursor: { x: number; y: number }) => DriverCall[])[],
  options: CallOptions,
): Promise<RunOutcome> {
  let ran = 0;
  for (const plan of plans) {
    const position = await host.call("get_cursor_position", {}, options);
    const cursor = position.structuredContent as { x: number; y: number };
    for (const call of plan({ x: cursor.x, y: cursor.y })) {
      if (call.tool === "sleep") {
        await new Promise((resolve) => setTimeout(resolve, call.args.ms as number));
        ran++;
        continue;
      }
      const result: ToolResult = await host.call(call.tool, call.args, options);
      if (result.isError) {
        const s = result.structuredContent ?? {};
        return { ran, failed: { tool: call.tool, code: String(s.code), message: String(s.message) } };
      }
      ran++;
    }
  }
  return { ran };
}
