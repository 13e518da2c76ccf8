/**
 * The checks strings, numbers and arrays take (`min`, `max`, `int`, `regex`, `startsWith`), with
 * zod 4's issues: a length check runs whenever the value has a length, even after a type issue;
 * `int` stops the checks after it.
 *
 * @module
 */
import type { RawIssue } from "./issues.ts";
import { type Check, errorMap, type ErrorParams, type Payload } from "./schema.ts";

function hasLength(payload: Payload): boolean {
  const value = payload.value as { length?: unknown } | null | undefined;
  return value !== null && value !== undefined && value.length !== undefined;
}

function lengthOrigin(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return "string";
  return "unknown";
}

/** Characters as zod counts them: a surrogate pair is one. */
function codePoints(text: string): number {
  let count = text.length;
  if (!/[\uD800-\uDBFF]/.test(text)) return count;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/** At least `minimum` characters or items. */
export function minLength(minimum: number, params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    when: hasLength,
    json: { minimum },
    length: {},
    run(payload, check) {
      const input = payload.value as string | unknown[];
      const units = input.length;
      const length = typeof input === "string" && units >= minimum && units < minimum * 2
        ? codePoints(input)
        : units;
      if (length >= minimum) return;
      push(payload, check, { code: "too_small", origin: lengthOrigin(input), minimum, inclusive: true });
    },
  };
}

/** At most `maximum` characters or items. */
export function maxLength(maximum: number, params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    when: hasLength,
    json: { maximum },
    length: { cap: maximum },
    run(payload, check) {
      const input = payload.value as string | unknown[];
      const units = input.length;
      const length = typeof input === "string" && units > maximum ? codePoints(input) : units;
      if (length <= maximum) return;
      push(payload, check, { code: "too_big", origin: lengthOrigin(input), maximum, inclusive: true });
    },
  };
}

/** A number of at least `minimum`. */
export function greaterOrEqual(minimum: number, params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    json: { minimum },
    run(payload, check) {
      if ((payload.value as number) >= minimum) return;
      push(payload, check, { code: "too_small", origin: "number", minimum, inclusive: true });
    },
  };
}

/** A number of at most `maximum`. */
export function lessOrEqual(maximum: number, params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    json: { maximum },
    run(payload, check) {
      if ((payload.value as number) <= maximum) return;
      push(payload, check, { code: "too_big", origin: "number", maximum, inclusive: true });
    },
  };
}

/** A safe integer (zod's `int`, JSON Schema `integer` within ±2^53-1). */
export function safeInteger(params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    json: { isInt: true, minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    run(payload, check) {
      const input = payload.value as number;
      if (!Number.isInteger(input)) {
        payload.issues.push({
          expected: "int",
          format: "safeint",
          code: "invalid_type",
          continue: false,
          input,
          inst: check,
        });
        return;
      }
      if (Number.isSafeInteger(input)) return;
      const note = "Integers must be within the safe integer range.";
      if (input > 0) {
        push(payload, check, {
          code: "too_big",
          maximum: Number.MAX_SAFE_INTEGER,
          note,
          origin: "int",
          inclusive: true,
        });
      } else {
        push(payload, check, {
          code: "too_small",
          minimum: Number.MIN_SAFE_INTEGER,
          note,
          origin: "int",
          inclusive: true,
        });
      }
    },
  };
}

/** A string matching `pattern`. */
export function matches(pattern: RegExp, params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    json: { pattern },
    run(payload, check) {
      pattern.lastIndex = 0;
      if (pattern.test(payload.value as string)) return;
      push(payload, check, {
        code: "invalid_format",
        origin: "string",
        format: "regex",
        pattern: pattern.toString(),
      });
    },
  };
}

/** A string starting with `prefix`. */
export function startsWith(prefix: string, params?: ErrorParams): Check {
  return {
    error: errorMap(params),
    json: {
      pattern: new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*`),
      format: "starts_with",
    },
    run(payload, check) {
      if ((payload.value as string).startsWith(prefix)) return;
      push(payload, check, { code: "invalid_format", origin: "string", format: "starts_with", prefix });
    },
  };
}

function push(payload: Payload, check: Check, issue: RawIssue): void {
  payload.issues.push({ ...issue, input: payload.value, inst: check, continue: true });
}

/** The bounds and patterns a schema's checks give JSON Schema. */
export function aggregate(checks: readonly Check[]): CheckTotals {
  const totals: CheckTotals = { patterns: [] };
  for (const { json } of checks) {
    if (!json) continue;
    if (json.minimum !== undefined) totals.minimum = Math.max(totals.minimum ?? -Infinity, json.minimum);
    if (json.maximum !== undefined) totals.maximum = Math.min(totals.maximum ?? Infinity, json.maximum);
    if (json.isInt) totals.isInt = true;
    if (json.format) totals.format ??= json.format;
    if (json.pattern) totals.patterns.push(json.pattern);
  }
  return totals;
}

/** What {@linkcode aggregate} finds. */
export interface CheckTotals {
  minimum?: number;
  maximum?: number;
  isInt?: boolean;
  format?: string;
  patterns: RegExp[];
}
