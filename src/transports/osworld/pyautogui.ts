/**
 * The pyautogui subset OSWorld agents emit, parsed (never run by Python or a shell): a script of
 * statements separated by newlines or `;`, each an `import pyautogui`/`import time`, the
 * `pyautogui.FAILSAFE = False` OSWorld prefixes, `time.sleep(n)`, or a call `pyautogui.f(...)`
 * of a known function with literal arguments (numbers, strings, lists of strings, `True`/`False`,
 * `None`, and pyautogui's tween names, which are ignored). Anything else fails the whole script
 * before any of it runs.
 *
 * @module
 */

/** A parsed literal. */
export type PyValue = number | string | boolean | null | string[] | { tween: string };

/** One call of the subset. */
export interface PyCall {
  /** `moveTo`, `click`, ..., or `sleep` for `time.sleep`. */
  fn: string;
  args: PyValue[];
  kwargs: Record<string, PyValue>;
}

/** Functions of the subset and the keyword arguments each accepts. */
export const PYAUTOGUI_FUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  moveTo: ["x", "y", "duration", "tween"],
  moveRel: ["xOffset", "yOffset", "duration", "tween"],
  click: ["x", "y", "clicks", "interval", "button", "duration", "tween"],
  doubleClick: ["x", "y", "interval", "button", "duration", "tween"],
  tripleClick: ["x", "y", "interval", "button", "duration", "tween"],
  rightClick: ["x", "y", "duration", "tween"],
  middleClick: ["x", "y", "duration", "tween"],
  dragTo: ["x", "y", "duration", "tween", "button", "mouseDownUp"],
  scroll: ["clicks", "x", "y"],
  vscroll: ["clicks", "x", "y"],
  hscroll: ["clicks", "x", "y"],
  typewrite: ["message", "interval"],
  write: ["message", "interval"],
  press: ["keys", "presses", "interval"],
  hotkey: ["interval"],
};

/** Why a script is outside the subset: the statement and what is wrong. */
export class PyautoguiSyntaxError extends Error {
  override name = "PyautoguiSyntaxError";
}

type Token =
  | { kind: "num"; value: number }
  | { kind: "str"; value: string }
  | { kind: "id"; value: string }
  | {
    kind: "op";
    value: string;
  };

function tokenize(source: string): Token[][] {
  const statements: Token[][] = [[]];
  let i = 0;
  let depth = 0;
  const push = (token: Token) => statements[statements.length - 1].push(token);
  while (i < source.length) {
    const c = source[i];
    if (c === "#") {
      while (i < source.length && source[i] !== "\n") i++;
      continue;
    }
    if ((c === "\n" || c === ";") && depth === 0) {
      statements.push([]);
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const { value, end } = readString(source, i);
      push({ kind: "str", value });
      i = end;
      continue;
    }
    const num = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(source.slice(i));
    if (num && (c !== "-" || lastIsOperand(statements) === false)) {
      push({ kind: "num", value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (id) {
      push({ kind: "id", value: id[0] });
      i += id[0].length;
      continue;
    }
    if ("()[],=.".includes(c)) {
      if (c === "(" || c === "[") depth++;
      if (c === ")" || c === "]") depth--;
      push({ kind: "op", value: c });
      i++;
      continue;
    }
    throw new PyautoguiSyntaxError(`unexpected character ${JSON.stringify(c)}`);
  }
  return statements.filter((s) => s.length > 0);
}

function lastIsOperand(statements: Token[][]): boolean {
  const last = statements[statements.length - 1].at(-1);
  return last !== undefined && (last.kind === "num" || last.kind === "str" || last.kind === "id" ||
    (last.kind === "op" && (last.value === ")" || last.value === "]")));
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "0": "\0",
};

function readString(source: string, start: number): { value: string; end: number } {
  const quote = source[start];
  let i = start + 1;
  let out = "";
  while (i < source.length && source[i] !== quote) {
    if (source[i] === "\n") throw new PyautoguiSyntaxError("a string literal runs past the end of its line");
    if (source[i] !== "\\") {
      out += source[i++];
      continue;
    }
    const e = source[i + 1];
    if (e in ESCAPES) {
      out += ESCAPES[e];
      i += 2;
    } else if (e === "x" || e === "u" || e === "U") {
      const len = e === "x" ? 2 : e === "u" ? 4 : 8;
      const hex = source.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new PyautoguiSyntaxError(`bad \\${e} escape`);
      out += String.fromCodePoint(parseInt(hex, 16));
      i += 2 + len;
    } else {
      out += "\\";
      i++;
    }
  }
  if (i >= source.length) throw new PyautoguiSyntaxError("unterminated string literal");
  return { value: out, end: i + 1 };
}

function text(tokens: Token[]): string {
  return tokens.map((t) => t.kind === "str" ? JSON.stringify(t.value) : String(t.value)).join("");
}

/** Parses a value at `tokens[i]`; returns it and the next index. */
function parseValue(tokens: Token[], i: number): [PyValue, number] {
  const t = tokens[i];
  if (!t) throw new PyautoguiSyntaxError("an argument is missing");
  if (t.kind === "num" || t.kind === "str") return [t.value, i + 1];
  if (t.kind === "id") {
    if (t.value === "True") return [true, i + 1];
    if (t.value === "False") return [false, i + 1];
    if (t.value === "None") return [null, i + 1];
    // pyautogui.easeInQuad and friends: a tween, which changes nothing here.
    if (
      t.value === "pyautogui" && tokens[i + 1]?.value === "." && tokens[i + 2]?.kind === "id" &&
      /^(ease|linear)/.test(String(tokens[i + 2].value))
    ) {
      return [{ tween: String(tokens[i + 2].value) }, i + 3];
    }
  }
  if (t.kind === "op" && t.value === "[") {
    const items: string[] = [];
    let j = i + 1;
    while (tokens[j]?.value !== "]") {
      const item = tokens[j];
      if (item?.kind !== "str") throw new PyautoguiSyntaxError("a list may hold only strings");
      items.push(item.value);
      j++;
      if (tokens[j]?.value === ",") j++;
      else if (tokens[j]?.value !== "]") throw new PyautoguiSyntaxError("expected , or ] in a list");
    }
    return [items, j + 1];
  }
  throw new PyautoguiSyntaxError(`${JSON.stringify(String(t.value))} is not a literal`);
}

function parseStatement(tokens: Token[]): PyCall | null {
  const words = tokens.map((t) => t.value);
  const line = text(tokens);
  if (words.length === 2 && words[0] === "import" && (words[1] === "pyautogui" || words[1] === "time")) {
    return null;
  }
  if (line === "pyautogui.FAILSAFE=False" || line === "pyautogui.FAILSAFE=True") return null;
  if (tokens.length < 4 || tokens[1].value !== "." || tokens[3]?.value !== "(") {
    throw new PyautoguiSyntaxError(`not a pyautogui call: ${line.slice(0, 80)}`);
  }
  const module = String(tokens[0].value), fn = String(tokens[2].value);
  const name = module === "time" && fn === "sleep" ? "sleep" : module === "pyautogui" ? fn : null;
  if (name === null || (name !== "sleep" && !Object.hasOwn(PYAUTOGUI_FUNCTIONS, name))) {
    throw new PyautoguiSyntaxError(`${module}.${fn} is not in the supported subset`);
  }
  const args: PyValue[] = [];
  const kwargs: Record<string, PyValue> = {};
  let i = 4;
  while (tokens[i]?.value !== ")") {
    if (tokens[i]?.kind === "id" && tokens[i + 1]?.value === "=") {
      const key = String(tokens[i].value);
      const allowed = name === "sleep" ? [] : PYAUTOGUI_FUNCTIONS[name];
      if (!allowed.includes(key)) throw new PyautoguiSyntaxError(`${name} takes no keyword ${key}`);
      const [value, next] = parseValue(tokens, i + 2);
      kwargs[key] = value;
      i = next;
    } else {
      if (Object.keys(kwargs).length) {
        throw new PyautoguiSyntaxError("a positional argument follows a keyword");
      }
      const [value, next] = parseValue(tokens, i);
      args.push(value);
      i = next;
    }
    if (tokens[i]?.value === ",") i++;
    else if (tokens[i]?.value !== ")") throw new PyautoguiSyntaxError(`expected , or ) in ${name}(...)`);
  }
  if (i !== tokens.length - 1) throw new PyautoguiSyntaxError(`text after ${name}(...)`);
  return { fn: name, args, kwargs };
}

/**
 * Parses a script of the subset into its calls, in order.
 *
 * @throws {PyautoguiSyntaxError} for anything outside the subset (nothing is run).
 */
export function parsePyautogui(source: string): PyCall[] {
  return tokenize(source).map(parseStatement).filter((call): call is PyCall => call !== null);
}
