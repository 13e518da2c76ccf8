/**
 * What a failed parse reports: issues with a code, a path and an English message, in zod 4's
 * shapes and words (agents and tests read them: `invalid_arguments` quotes the first one), and
 * {@linkcode prettifyError}, which lists them all.
 *
 * @module
 */

/** What went wrong, as zod 4 names it. */
export type IssueCode =
  | "invalid_type"
  | "invalid_value"
  | "invalid_format"
  | "invalid_union"
  | "invalid_key"
  | "too_big"
  | "too_small"
  | "unrecognized_keys"
  | "custom";

/** One problem in a parsed value; `path` leads from the root to it. */
export interface Issue {
  readonly code: IssueCode;
  readonly path: PropertyKey[];
  readonly message: string;
  /** unrecognized_keys: the keys the schema does not know. */
  readonly keys?: string[];
  /** invalid_type: the type wanted. */
  readonly expected?: string;
  /** too_big / too_small: what was measured ("string", "number", "array"...). */
  readonly origin?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly inclusive?: boolean;
  /** invalid_value: the values allowed. */
  readonly values?: readonly unknown[];
  /** invalid_format: which format ("regex", "starts_with"). */
  readonly format?: string;
  readonly pattern?: string;
  readonly prefix?: string;
  /** invalid_union: each option's issues. */
  readonly errors?: Issue[][];
  readonly [key: string]: unknown;
}

/** An issue while parsing: `message` is resolved when the parse ends. */
export interface RawIssue {
  code: IssueCode;
  path?: PropertyKey[];
  message?: string;
  input?: unknown;
  /** False: later checks of the same value do not run; true: they do; absent: same as false. */
  continue?: boolean;
  /** What raised it (a schema or a check); its `error` option words the message. */
  inst?: { readonly error?: ErrorMap };
  /** The schema whose check raised it: its `error` option words the message next. */
  schema?: { readonly error?: ErrorMap };
  keys?: string[];
  [key: string]: unknown;
}

/** A custom message for a schema's or a check's issues; undefined keeps the default. */
export type ErrorMap = (issue: RawIssue) => string | undefined;

/** The error a failed `parse` throws and `safeParse` returns. */
export class SchemaError extends Error {
  override readonly name = "ZodError";
  constructor(readonly issues: Issue[]) {
    super(JSON.stringify(issues, null, 2));
  }
}

/** True when an issue in `issues` from `start` on stops later checks (zod's `aborted`). */
export function aborted(issues: readonly RawIssue[], start = 0): boolean {
  for (let i = start; i < issues.length; i++) if (issues[i].continue !== true) return true;
  return false;
}

/** True when an issue from `start` on explicitly stops later checks (`continue: false`). */
export function explicitlyAborted(issues: readonly RawIssue[], start = 0): boolean {
  for (let i = start; i < issues.length; i++) if (issues[i].continue === false) return true;
  return false;
}

/** Prefixes each issue's path with `key` (a parent's property or index). */
export function prefixIssues(key: PropertyKey, issues: RawIssue[]): RawIssue[] {
  for (const issue of issues) (issue.path ??= []).unshift(key);
  return issues;
}

/** The issue as callers see it: its message worded, the parse's own fields left out. */
export function finalizeIssue(raw: RawIssue): Issue {
  const message = raw.message ?? raw.inst?.error?.(raw) ??
    (raw.schema !== raw.inst ? raw.schema?.error?.(raw) : undefined) ?? defaultMessage(raw);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (key === "inst" || key === "schema" || key === "continue" || key === "input") continue;
    out[key] = raw[key];
  }
  out.path ??= [];
  out.message = message;
  return out as unknown as Issue;
}

/** zod 4's `prettifyError`: one `✖ message` line per issue, shallowest first, with its path. */
export function prettifyError(error: { issues: readonly Issue[] }): string {
  const lines: string[] = [];
  const issues = [...error.issues].sort((a, b) => (a.path ?? []).length - (b.path ?? []).length);
  for (const issue of issues) {
    lines.push(`✖ ${issue.message}`);
    if (issue.path?.length) lines.push(`  → at ${dotPath(issue.path)}`);
  }
  return lines.join("\n");
}

function dotPath(path: readonly PropertyKey[]): string {
  const segments: string[] = [];
  for (const segment of path) {
    if (typeof segment === "number") segments.push(`[${segment}]`);
    else if (typeof segment === "symbol") segments.push(`[${JSON.stringify(String(segment))}]`);
    else if (/[^\w$]/.test(segment)) segments.push(`[${JSON.stringify(segment)}]`);
    else {
      if (segments.length) segments.push(".");
      segments.push(segment);
    }
  }
  return segments.join("");
}

/** The type name zod's messages use for a value. */
export function parsedType(data: unknown): string {
  const type = typeof data;
  if (type === "number") return Number.isNaN(data) ? "nan" : "number";
  if (type === "object") {
    if (data === null) return "null";
    if (Array.isArray(data)) return "array";
    const proto = Object.getPrototypeOf(data);
    const ctor = (data as { constructor?: { name: string } }).constructor;
    if (proto !== Object.prototype && ctor) return ctor.name;
  }
  return type;
}

const SIZING: Record<string, string> = {
  string: "characters",
  file: "bytes",
  array: "items",
  set: "items",
  map: "entries",
};

function typeName(type: string, input?: unknown): string {
  if (type === "number" && typeof input === "number" && !Number.isFinite(input)) return String(input);
  return type === "nan" ? "NaN" : type;
}

function primitive(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "string") return `"${value}"`;
  return `${value}`;
}

/** zod 4's English message for an issue. */
function defaultMessage(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `Invalid input: expected ${typeName(issue.expected as string)}, received ${
        typeName(parsedType(issue.input), issue.input)
      }`;
    case "invalid_value": {
      const values = issue.values as unknown[];
      if (values.length === 1) return `Invalid input: expected ${primitive(values[0])}`;
      return `Invalid option: expected one of ${values.map(primitive).join("|")}`;
    }
    case "too_big": {
      const adj = issue.inclusive ? "<=" : "<";
      const unit = SIZING[issue.origin as string];
      const origin = issue.origin ?? "value";
      if (unit) return `Too big: expected ${origin} to have ${adj}${issue.maximum} ${unit}`;
      return `Too big: expected ${origin} to be ${adj}${issue.maximum}`;
    }
    case "too_small": {
      const adj = issue.inclusive ? ">=" : ">";
      const unit = SIZING[issue.origin as string];
      if (unit) return `Too small: expected ${issue.origin} to have ${adj}${issue.minimum} ${unit}`;
      return `Too small: expected ${issue.origin} to be ${adj}${issue.minimum}`;
    }
    case "invalid_format":
      if (issue.format === "starts_with") return `Invalid string: must start with "${issue.prefix}"`;
      if (issue.format === "regex") return `Invalid string: must match pattern ${issue.pattern}`;
      return `Invalid ${issue.format}`;
    case "unrecognized_keys": {
      const keys = issue.keys as string[];
      return `Unrecognized key${keys.length > 1 ? "s" : ""}: ${keys.map(primitive).join(", ")}`;
    }
    case "invalid_key":
      return `Invalid key in ${issue.origin}`;
    default:
      return "Invalid input";
  }
}
