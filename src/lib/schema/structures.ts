/**
 * Schemas of values that hold others: objects (strict, stripping, or with a catch-all), arrays,
 * tuples, records and unions, parsed as zod 4 parses them (issue order and paths included).
 *
 * @module
 */
import { aggregate, maxLength, minLength } from "./checks.ts";
import { aborted, finalizeIssue, prefixIssues } from "./issues.ts";
import {
  type AnySchema,
  type Check,
  errorMap,
  type ErrorParams,
  type input,
  type Io,
  isPlainObject,
  type Json,
  type output,
  type Payload,
  Schema,
  type SchemaDef,
} from "./schema.ts";

/** An object schema's keys and their schemas. */
export type Shape = { readonly [key: string]: AnySchema };

type Flatten<T> = { [K in keyof T]: T[K] } & unknown;
type OptionalOutKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends { readonly "~optionalOut": true } ? K : never;
}[keyof S];
type OptionalInKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends { readonly "~optionalIn": true } ? K : never;
}[keyof S];

/** What an object of `S` parses to: optional keys may be missing. */
export type ObjectOutput<S extends Shape> = Flatten<
  & { -readonly [K in Exclude<keyof S, OptionalOutKeys<S>>]: output<S[K]> }
  & { -readonly [K in OptionalOutKeys<S>]?: output<S[K]> }
>;
/** What an object of `S` accepts: optional and defaulted keys may be missing. */
export type ObjectInput<S extends Shape> = Flatten<
  & { -readonly [K in Exclude<keyof S, OptionalInKeys<S>>]: input<S[K]> }
  & { -readonly [K in OptionalInKeys<S>]?: input<S[K]> }
>;

/** Unknown keys: refused (strict), dropped (strip), or parsed by a catch-all schema. */
type UnknownKeys = "strict" | "strip" | AnySchema;

/** An object with known keys. */
export class ObjectSchema<S extends Shape, Extra = unknown>
  extends Schema<ObjectOutput<S> & Extra, ObjectInput<S> & Extra> {
  constructor(
    readonly shape: S,
    readonly unknownKeys: UnknownKeys,
    params?: ErrorParams,
    checks: readonly Check[] = [],
  ) {
    super({ error: errorMap(params), checks });
  }

  /** A new object schema with `shape`'s keys added; its description is not kept (as in zod). */
  extend<T extends Shape>(shape: T): ObjectSchema<Flatten<Omit<S, keyof T> & T>, Extra> {
    if (this.def.checks.length && Object.keys(shape).some((key) => Object.hasOwn(this.shape, key))) {
      throw new Error("Cannot overwrite keys on object schemas containing refinements");
    }
    const merged = { ...this.shape, ...shape };
    return new ObjectSchema(merged, this.unknownKeys, { error: this.def.error }, this.def.checks) as never;
  }

  /** A new object schema without the keys `mask` names. */
  omit<M extends { [K in keyof S]?: true }>(mask: M): ObjectSchema<Flatten<Omit<S, keyof M>>, Extra> {
    if (this.def.checks.length) {
      throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const shape = Object.fromEntries(Object.entries(this.shape).filter(([key]) => !(key in mask)));
    return new ObjectSchema(shape, this.unknownKeys, { error: this.def.error }) as never;
  }

  /** Unknown keys are parsed by `schema` and kept. */
  catchall<C extends AnySchema>(schema: C): ObjectSchema<S, Record<string, output<C>>> {
    return new ObjectSchema(this.shape, schema, { error: this.def.error }) as never;
  }

  protected parseType(payload: Payload): Payload {
    const input = payload.value;
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      payload.issues.push({ expected: "object", code: "invalid_type", input, inst: this });
      return payload;
    }
    const record = input as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    payload.value = value;
    for (const key of Object.keys(this.shape)) {
      if (key === "__proto__") continue;
      const field = this.shape[key];
      const result = field.run({ value: record[key], issues: [] });
      settleProperty(result, payload, value, key, record, field);
    }
    const extra = this.unknownKeys;
    if (extra === "strip") return payload;
    const unrecognized: string[] = [];
    for (const key in record) {
      if (Object.hasOwn(this.shape, key)) continue;
      if (extra === "strict") {
        unrecognized.push(key);
        continue;
      }
      if (key === "__proto__") continue;
      settleProperty(extra.run({ value: record[key], issues: [] }), payload, value, key, record, extra);
    }
    if (unrecognized.length) {
      payload.issues.push({
        code: "unrecognized_keys",
        keys: unrecognized,
        input,
        inst: this,
        continue: true,
      });
    }
    return payload;
  }

  jsonOwn(io: Io, child: (schema: AnySchema) => Json): Json {
    const properties: Json = {};
    for (const key of Object.keys(this.shape)) properties[key] = child(this.shape[key]);
    const json: Json = { type: "object", properties };
    const required = Object.keys(this.shape).filter((key) =>
      io === "input" ? this.shape[key].optIn === undefined : this.shape[key].optOut === undefined
    );
    if (required.length) json.required = required;
    if (this.unknownKeys === "strict") json.additionalProperties = false;
    else if (this.unknownKeys === "strip") {
      if (io === "output") json.additionalProperties = false;
    } else json.additionalProperties = child(this.unknownKeys);
    return json;
  }
}

/** zod's `handlePropertyResult`: what a key's parse adds to the object and its issues. */
function settleProperty(
  result: Payload,
  final: Payload,
  value: Record<string, unknown>,
  key: string,
  input: Record<string, unknown>,
  field: AnySchema,
): void {
  const present = key in input;
  const optIn = field.optIn;
  const optionalOut = field.optOut === "optional";
  if (!present && optionalOut && optIn === "optional") return;
  if (result.issues.length) {
    if (optIn !== undefined && optionalOut && !present) return;
    final.issues.push(...prefixIssues(key, result.issues));
  }
  if (!present && optIn === undefined) {
    if (!result.issues.length) {
      final.issues.push({ code: "invalid_type", expected: "nonoptional", input: undefined, path: [key] });
    }
    return;
  }
  if (result.value === undefined) {
    if (present || (optIn === "defaulted" && !optionalOut)) value[key] = undefined;
  } else {
    value[key] = result.value;
  }
}

/** A list of one kind of value. */
export class ArraySchema<T extends AnySchema> extends Schema<output<T>[], input<T>[]> {
  constructor(readonly element: T, def?: Partial<SchemaDef>) {
    super(def);
  }

  min(length: number, params?: ErrorParams): this {
    return this.check(minLength(length, params));
  }

  max(length: number, params?: ErrorParams): this {
    return this.check(maxLength(length, params));
  }

  protected parseType(payload: Payload): Payload {
    const input = payload.value;
    if (!Array.isArray(input)) {
      payload.issues.push({ expected: "array", code: "invalid_type", input, inst: this });
      return payload;
    }
    if (this.tooLong(payload, input.length)) return payload;
    const value = new Array(input.length);
    payload.value = value;
    for (let i = 0; i < input.length; i++) {
      const result = this.element.run({ value: input[i], issues: [] });
      if (result.issues.length) payload.issues.push(...prefixIssues(i, result.issues));
      value[i] = result.value;
    }
    return payload;
  }

  /**
   * zod's size cap: an array longer than a leading `max` gets that check's issue alone (stopping the
   * rest) and its items are not parsed.
   */
  private tooLong(payload: Payload, length: number): boolean {
    const leading: Check[] = [];
    for (const check of this.def.checks) {
      if (!check.length) break;
      if (check.length.cap !== undefined) leading.push(check);
    }
    for (const check of leading) {
      if (length <= check.length!.cap! || !check.when!(payload)) continue;
      const start = payload.issues.length;
      check.run(payload, check);
      payload.issues[start].continue = false;
      payload.issues[start].schema ??= this;
      return true;
    }
    return false;
  }

  jsonOwn(_io: Io, child: (schema: AnySchema) => Json): Json {
    const json: Json = {};
    const { minimum, maximum } = aggregate(this.def.checks);
    if (minimum !== undefined) json.minItems = minimum;
    if (maximum !== undefined) json.maxItems = maximum;
    json.type = "array";
    json.items = child(this.element);
    return json;
  }
}

type TupleOutput<T extends readonly AnySchema[]> = { -readonly [K in keyof T]: output<T[K]> };
type TupleInput<T extends readonly AnySchema[]> = { -readonly [K in keyof T]: input<T[K]> };

/** A fixed-length list, one schema per position. */
export class TupleSchema<T extends readonly AnySchema[]> extends Schema<TupleOutput<T>, TupleInput<T>> {
  constructor(readonly items: T) {
    super();
  }

  protected parseType(payload: Payload): Payload {
    const input = payload.value;
    if (!Array.isArray(input)) {
      payload.issues.push({ input, inst: this, expected: "tuple", code: "invalid_type" });
      return payload;
    }
    const items = this.items;
    const value: unknown[] = [];
    payload.value = value;
    const optInStart = omittableFrom(items, (item) => item.optIn !== undefined);
    const optOutStart = omittableFrom(items, (item) => item.optOut === "optional");
    if (input.length < optInStart) {
      payload.issues.push({
        code: "too_small",
        minimum: optInStart,
        inclusive: true,
        input,
        inst: this,
        origin: "array",
      });
      return payload;
    }
    if (input.length > items.length) {
      payload.issues.push({
        code: "too_big",
        maximum: items.length,
        inclusive: true,
        input,
        inst: this,
        origin: "array",
      });
    }
    const results = items.map((item, i) => item.run({ value: input[i], issues: [] }));
    for (let i = 0; i < items.length; i++) {
      const present = i < input.length;
      if (!present && i >= optOutStart && items[i].optIn === "optional") {
        value.length = i;
        break;
      }
      if (results[i].issues.length) {
        if (!present && i >= optOutStart) {
          value.length = i;
          break;
        }
        payload.issues.push(...prefixIssues(i, results[i].issues));
      }
      value[i] = results[i].value;
    }
    for (let i = value.length - 1; i >= input.length; i--) {
      if (items[i].optOut === "optional" && value[i] === undefined) value.length = i;
      else break;
    }
    return payload;
  }

  jsonOwn(io: Io, child: (schema: AnySchema) => Json): Json {
    let minItems = this.items.length;
    while (minItems > 0) {
      const item = this.items[minItems - 1];
      if (io === "input" ? item.optIn === undefined : item.optOut !== "optional") break;
      minItems--;
    }
    const json: Json = { type: "array", prefixItems: this.items.map(child), items: false };
    if (minItems > 0) json.minItems = minItems;
    json.maxItems = this.items.length;
    return json;
  }
}

function omittableFrom(items: readonly AnySchema[], omittable: (item: AnySchema) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (!omittable(items[i])) return i + 1;
  return 0;
}

/** An object whose keys are strings and whose values all match one schema. */
export class RecordSchema<K extends Schema<string>, V extends AnySchema>
  extends Schema<Record<output<K>, output<V>>, Record<input<K>, input<V>>> {
  constructor(readonly keys: K, readonly values: V) {
    super();
  }

  protected parseType(payload: Payload): Payload {
    const input = payload.value;
    if (!isPlainObject(input)) {
      payload.issues.push({ expected: "record", code: "invalid_type", input, inst: this });
      return payload;
    }
    const value: Record<string, unknown> = {};
    payload.value = value;
    for (const key of Object.keys(input)) {
      if (key === "__proto__") continue;
      const keyResult = this.keys.run({ value: key, issues: [] });
      if (keyResult.issues.length) {
        payload.issues.push({
          code: "invalid_key",
          origin: "record",
          issues: keyResult.issues.map(finalizeIssue),
          input: key,
          path: [key],
          inst: this,
        });
        continue;
      }
      const result = this.values.run({ value: input[key], issues: [] });
      if (result.issues.length) payload.issues.push(...prefixIssues(key, result.issues));
      value[keyResult.value as string] = result.value;
    }
    return payload;
  }

  jsonOwn(_io: Io, child: (schema: AnySchema) => Json): Json {
    return { type: "object", propertyNames: child(this.keys), additionalProperties: child(this.values) };
  }
}

/** The first of several schemas that matches. */
export class UnionSchema<T extends readonly AnySchema[]> extends Schema<output<T[number]>, input<T[number]>> {
  constructor(readonly options: T) {
    super();
  }

  override get optIn(): "optional" | "defaulted" | undefined {
    if (this.options.some((o) => o.optIn === "defaulted")) return "defaulted";
    return this.options.some((o) => o.optIn !== undefined) ? "optional" : undefined;
  }

  override get optOut(): "optional" | undefined {
    return this.options.some((o) => o.optOut === "optional") ? "optional" : undefined;
  }

  protected parseType(payload: Payload): Payload {
    if (this.options.length === 1) return this.options[0].run(payload);
    const results: Payload[] = [];
    for (const option of this.options) {
      const result = option.run({ value: payload.value, issues: [] });
      if (result.issues.length === 0) return result;
      results.push(result);
    }
    const live = results.filter((result) => !aborted(result.issues));
    if (live.length === 1) {
      payload.value = live[0].value;
      return live[0];
    }
    payload.issues.push({
      code: "invalid_union",
      input: payload.value,
      inst: this,
      errors: results.map((result) => result.issues.map(finalizeIssue)),
    });
    return payload;
  }

  jsonOwn(_io: Io, child: (schema: AnySchema) => Json): Json {
    return { anyOf: this.options.map(child) };
  }
}
