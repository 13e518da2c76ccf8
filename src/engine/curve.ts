/**
 * `y(x)` expressions for parallel_mouse_drag's `fn` form: numbers, `x`, `pi`,
 * `e`, `+ - * / ^` (also `**`), unary minus, parentheses and the functions
 * sin, cos, tan, sqrt, abs, exp, ln, log (base 10), floor, ceil, round, min, max.
 * Parsed once into a closure; nothing is evaluated as code.
 *
 * @module
 */
import { DriverError } from "../ports/errors.ts";

type Fn = (x: number) => number;

const FUNCTIONS: Record<string, (...args: number[]) => number> = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  sqrt: Math.sqrt,
  abs: Math.abs,
  exp: Math.exp,
  ln: Math.log,
  log: Math.log10,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
  min: Math.min,
  max: Math.max,
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

/**
 * Compiles an expression of `x`.
 *
 * @throws {DriverError} `invalid_arguments` naming `field` when it does not parse.
 */
export function compileCurve(source: string, field: string): Fn {
  const tokens = source.match(/\d+\.?\d*(?:e[+-]?\d+)?|\.\d+|\*\*|[a-z_]+|[-+*/^(),]|\S/gi) ?? [];
  let at = 0;
  const fail = (why: string): never => {
    throw new DriverError("invalid_arguments", `Cannot read the expression "${source}": ${why}`, {
      field,
      hint: "write y as a function of x, e.g. 200 + 80*sin(x/40)",
    });
  };
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at];
    if (expected !== undefined && token !== expected) fail(`expected "${expected}" at token ${at + 1}`);
    at++;
    return token;
  };
  // expression := term (("+"|"-") term)*; term := unary (("*"|"/") unary)*;
  // unary := "-" unary | power; power := atom (("^"|"**") unary)?
  const expression = (): Fn => {
    let left = term();
    while (peek() === "+" || peek() === "-") {
      const op = take(), a = left, b = term();
      left = op === "+" ? (x) => a(x) + b(x) : (x) => a(x) - b(x);
    }
    return left;
  };
  const term = (): Fn => {
    let left = unary();
    while (peek() === "*" || peek() === "/") {
      const op = take(), a = left, b = unary();
      left = op === "*" ? (x) => a(x) * b(x) : (x) => a(x) / b(x);
    }
    return left;
  };
  const unary = (): Fn => {
    if (peek() === "-") {
      take();
      const a = unary();
      return (x) => -a(x);
    }
    if (peek() === "+") take();
    return power();
  };
  const power = (): Fn => {
    const base = atom();
    if (peek() === "^" || peek() === "**") {
      take();
      const exponent = unary();
      return (x) => Math.pow(base(x), exponent(x));
    }
    return base;
  };
  const atom = (): Fn => {
    const token = take();
    if (token === undefined) return fail("it ends too early");
    if (token === "(") {
      const inner = expression();
      take(")");
      return inner;
    }
    if (/^[\d.]/.test(token)) {
      const value = Number(token);
      if (!Number.isFinite(value)) fail(`"${token}" is not a number`);
      return () => value;
    }
    const name = token.toLowerCase();
    if (name === "x") return (x) => x;
    if (name in CONSTANTS) return () => CONSTANTS[name];
    if (name in FUNCTIONS) {
      take("(");
      const args = [expression()];
      while (peek() === ",") {
        take();
        args.push(expression());
      }
      take(")");
      const fn = FUNCTIONS[name];
      return (x) => fn(...args.map((arg) => arg(x)));
    }
    return fail(`unknown name "${token}"`);
  };
  if (tokens.length === 0) fail("it is empty");
  const compiled = expression();
  if (at < tokens.length) fail(`unexpected "${tokens[at]}"`);
  return compiled;
}

/**
 * `samples` points (x, f(x)) with x evenly spaced from `from` to `to`.
 *
 * @throws {DriverError} `invalid_arguments` when f is not finite at a sample.
 */
export function sampleCurve(f: Fn, from: number, to: number, samples: number, field: string) {
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < samples; i++) {
    const x = from + (to - from) * i / (samples - 1);
    const y = f(x);
    if (!Number.isFinite(y)) {
      throw new DriverError("invalid_arguments", `The expression is not a finite number at x = ${x}`, {
        field,
      });
    }
    points.push({ x, y });
  }
  return points;
}
