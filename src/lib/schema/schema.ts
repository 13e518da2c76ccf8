/**
 * The base of every schema, its checks, and the wrappers any schema can take (optional,
 * nullable, default). Schemas are immutable: `describe`, `meta`, `refine` and the checks
 * return a copy. Parsing follows zod 4 step by step (the type test, then the checks; which
 * issues stop later checks), so messages and issue lists are the ones zod gave.
 *
 * @module
 */
import {
  aborted,
  type ErrorMap,
  explicitlyAborted,
  finalizeIssue,
  type IssueCode,
  type RawIssue,
  SchemaError,
} from "./issues.ts";

/** A value being parsed and the issues found so far. */
export interface Payload {
  value: unknown;
  issues: RawIssue[];
}

/** A JSON Schema object. */
export type Json = Record<string, unknown>;

/** Which side of a parse a JSON Schema describes: what callers send, or what comes out. */
export type Io = "input" | "output";

/** What a check tells JSON Schema. */
export interface CheckJson {
  minimum?: number;
  maximum?: number;
  isInt?: boolean;
  pattern?: RegExp;
  format?: string;
}

/** A test a value passes after its type test. */
export interface Check {
  /** Words this check's issues (from the `error` or `message` option). */
  readonly error?: ErrorMap;
  /** Set: runs even after an issue that stops checks (length checks: whenever there is a length). */
  readonly when?: (payload: Payload) => boolean;
  /** Pushes issues onto `payload.issues`; `inst` is the check itself. */
  readonly run: (payload: Payload, check: Check) => void;
  readonly json?: CheckJson;
  /** A length check: arrays run a run of them before their items (`cap`: the maximum). */
  readonly length?: { cap?: number };
}

/** The options a schema or check takes for its message: a string, or `{ error }`/`{ message }`. */
export type ErrorParams = string | { error?: string | ErrorMap; message?: string; path?: PropertyKey[] };

/** Turns error options into an {@linkcode ErrorMap}. */
export function errorMap(params: ErrorParams | undefined): ErrorMap | undefined {
  if (params === undefined) return undefined;
  if (typeof params === "string") return () => params;
  const error = params.message ?? params.error;
  if (typeof error === "string") return () => error;
  return error;
}

/** What every schema holds besides its type's own settings. */
export interface SchemaDef {
  readonly checks: readonly Check[];
  /** description, and what `meta()` added: JSON Schema carries them. */
  readonly meta: Readonly<Json>;
  readonly error?: ErrorMap;
}

/** Whether an object may leave a key out: on input (optional, default) and on output (optional). */
export type Omittable = "optional" | "defaulted" | undefined;

/** The result of `safeParse`. */
export type SafeParseResult<T> = { success: true; data: T; error?: undefined } | {
  success: false;
  data?: undefined;
  error: SchemaError;
};

/** Lets a `superRefine` add issues. */
export interface RefinementContext {
  readonly value: unknown;
  addIssue(issue: { code?: IssueCode; path?: PropertyKey[]; message?: string; [key: string]: unknown }): void;
}

/** Any schema. */
// deno-lint-ignore no-explicit-any
export type AnySchema = Schema<any, any>;

/** What a schema parses to. */
export type output<T> = T extends { readonly "~output": infer O } ? O : never;
/** What a schema accepts. */
export type input<T> = T extends { readonly "~input": infer I } ? I : never;
/** Same as {@linkcode output}. */
export type { output as infer };

/** A schema: parses unknown values into `O` (from `I`), and describes itself as JSON Schema. */
export abstract class Schema<O = unknown, I = O> {
  declare readonly "~output": O;
  declare readonly "~input": I;
  /** Set (type level only) by wrappers an object key may be missing for. */
  declare readonly "~optionalIn"?: boolean;
  declare readonly "~optionalOut"?: boolean;
  readonly def: SchemaDef;

  constructor(def: Partial<SchemaDef> = {}) {
    this.def = { checks: def.checks ?? [], meta: def.meta ?? {}, error: def.error };
  }

  /** The type test: pushes an issue when the value is not of this type, or builds the output. */
  protected abstract parseType(payload: Payload): Payload;

  /** This schema's own JSON Schema keys (children built with `child`). */
  abstract jsonOwn(io: Io, child: (schema: AnySchema) => Json): Json;

  /** For wrappers whose JSON Schema is their inner schema's: that schema. */
  jsonRef(): AnySchema | undefined {
    return undefined;
  }

  /** May an object leave this key out (input side)? */
  get optIn(): Omittable {
    return undefined;
  }

  /** May the key be missing from the output? */
  get optOut(): "optional" | undefined {
    return undefined;
  }

  /** Words this schema's own issues. */
  get error(): ErrorMap | undefined {
    return this.def.error;
  }

  /** The description, if any. */
  get description(): string | undefined {
    return this.def.meta.description as string | undefined;
  }

  /** Parses `payload` in place (or into a new payload) and returns it. */
  run(payload: Payload): Payload {
    const result = this.parseType(payload);
    return this.def.checks.length ? runChecks(result, this.def.checks, this) : result;
  }

  safeParse(value: unknown): SafeParseResult<O> {
    const result = this.run({ value, issues: [] });
    if (result.issues.length) {
      return { success: false, error: new SchemaError(result.issues.map(finalizeIssue)) };
    }
    return { success: true, data: result.value as O };
  }

  /** @throws {SchemaError} when the value does not match. */
  parse(value: unknown): O {
    const result = this.safeParse(value);
    if (!result.success) throw result.error;
    return result.data;
  }

  optional(): OptionalSchema<this> {
    return new OptionalSchema(this);
  }

  nullable(): NullableSchema<this> {
    return new NullableSchema(this);
  }

  default(value: Exclude<O, undefined>): DefaultSchema<this> {
    return new DefaultSchema(this, value as Exclude<output<this>, undefined>);
  }

  describe(description: string): this {
    return this.withDef({ meta: { ...this.def.meta, description } });
  }

  meta(data: Json): this {
    return this.withDef({ meta: { ...this.def.meta, ...data } });
  }

  /** Adds a test of the parsed value; a false result is a `custom` issue. */
  refine(test: (value: O) => unknown, params?: ErrorParams): this {
    const path = typeof params === "object" ? params.path : undefined;
    return this.check({
      error: errorMap(params),
      run(payload, check) {
        if (test(payload.value as O)) return;
        payload.issues.push({
          code: "custom",
          input: payload.value,
          inst: check,
          path: [...path ?? []],
          continue: true,
        });
      },
    });
  }

  /** Adds a test that reports its own issues through `context.addIssue`. */
  superRefine(test: (value: O, context: RefinementContext) => void): this {
    return this.check({
      run(payload, check) {
        test(payload.value as O, {
          value: payload.value,
          addIssue(issue) {
            payload.issues.push({
              ...issue,
              code: issue.code ?? "custom",
              input: "input" in issue ? issue.input : payload.value,
              inst: check,
              continue: true,
            });
          },
        });
      },
    });
  }

  /** A copy with `check` added after the others. */
  check(check: Check): this {
    return this.withDef({ checks: [...this.def.checks, check] });
  }

  /** A copy with `patch` applied to its definition. */
  protected withDef(patch: Partial<SchemaDef>): this {
    const copy = Object.create(Object.getPrototypeOf(this));
    Object.assign(copy, this);
    copy.def = { ...this.def, ...patch };
    return copy;
  }
}

/** zod's check loop: a check is skipped once an issue stopped checks, unless it has `when`. */
function runChecks(payload: Payload, checks: readonly Check[], schema: AnySchema): Payload {
  let isAborted = aborted(payload.issues);
  for (const check of checks) {
    if (check.when) {
      if (explicitlyAborted(payload.issues)) continue;
      if (!check.when(payload)) continue;
    } else if (isAborted) {
      continue;
    }
    const before = payload.issues.length;
    check.run(payload, check);
    if (payload.issues.length === before) continue;
    for (let i = before; i < payload.issues.length; i++) payload.issues[i].schema ??= schema;
    if (!isAborted) isAborted = aborted(payload.issues, before);
  }
  return payload;
}

/** Accepts undefined (and a missing key). */
export class OptionalSchema<T extends AnySchema> extends Schema<output<T> | undefined, input<T> | undefined> {
  declare readonly "~optionalIn": true;
  declare readonly "~optionalOut": true;

  constructor(readonly inner: T) {
    super();
  }

  override get optIn(): Omittable {
    return this.inner.optIn === "defaulted" ? "defaulted" : "optional";
  }

  override get optOut(): "optional" {
    return "optional";
  }

  protected parseType(payload: Payload): Payload {
    if (payload.value !== undefined) return this.inner.run(payload);
    if (this.inner.optIn !== "defaulted") return payload;
    const result = this.inner.run({ value: undefined, issues: [] });
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
  }

  jsonOwn(): Json {
    return {};
  }

  override jsonRef(): AnySchema {
    return this.inner;
  }

  unwrap(): T {
    return this.inner;
  }
}

/** Accepts null. */
export class NullableSchema<T extends AnySchema> extends Schema<output<T> | null, input<T> | null> {
  declare readonly "~optionalIn": T["~optionalIn"];
  declare readonly "~optionalOut": T["~optionalOut"];

  constructor(readonly inner: T) {
    super();
  }

  override get optIn(): Omittable {
    return this.inner.optIn;
  }

  override get optOut(): "optional" | undefined {
    return this.inner.optOut;
  }

  protected parseType(payload: Payload): Payload {
    return payload.value === null ? payload : this.inner.run(payload);
  }

  jsonOwn(_io: Io, child: (schema: AnySchema) => Json): Json {
    return { anyOf: [child(this.inner), { type: "null" }] };
  }

  unwrap(): T {
    return this.inner;
  }
}

/** Gives undefined (and a missing key) a value. */
export class DefaultSchema<T extends AnySchema>
  extends Schema<Exclude<output<T>, undefined>, input<T> | undefined> {
  declare readonly "~optionalIn": true;

  constructor(readonly inner: T, readonly defaultValue: Exclude<output<T>, undefined>) {
    super();
  }

  override get optIn(): Omittable {
    return "defaulted";
  }

  protected parseType(payload: Payload): Payload {
    if (payload.value === undefined) {
      payload.value = shallowClone(this.defaultValue);
      return payload;
    }
    const result = this.inner.run(payload);
    if (result.value === undefined) result.value = shallowClone(this.defaultValue);
    return result;
  }

  jsonOwn(): Json {
    return { default: JSON.parse(JSON.stringify(this.defaultValue)) };
  }

  override jsonRef(): AnySchema {
    return this.inner;
  }
}

/** A plain object: `{}` or made by `Object.create(null)` (zod's `isPlainObject`). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  if (typeof proto !== "object" || proto === null || Array.isArray(proto)) return false;
  return Object.prototype.hasOwnProperty.call(proto, "isPrototypeOf");
}

function shallowClone<T>(value: T): T {
  if (isPlainObject(value)) return { ...value };
  if (Array.isArray(value)) return [...value] as T;
  return value;
}
