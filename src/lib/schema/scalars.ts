/**
 * Schemas of single values: string, number, boolean, null, unknown, a literal, an enum.
 *
 * @module
 */
import {
  aggregate,
  greaterOrEqual,
  lessOrEqual,
  matches,
  maxLength,
  minLength,
  safeInteger,
  startsWith,
} from "./checks.ts";
import { errorMap, type ErrorParams, type Json, type Payload, Schema } from "./schema.ts";

/** Pushes zod's `invalid_type` issue. */
function wrongType(payload: Payload, expected: string, schema: Schema<unknown>): Payload {
  payload.issues.push({ expected, code: "invalid_type", input: payload.value, inst: schema });
  return payload;
}

/** A string. */
export class StringSchema extends Schema<string> {
  protected parseType(payload: Payload): Payload {
    return typeof payload.value === "string" ? payload : wrongType(payload, "string", this);
  }

  min(length: number, params?: ErrorParams): this {
    return this.check(minLength(length, params));
  }

  max(length: number, params?: ErrorParams): this {
    return this.check(maxLength(length, params));
  }

  regex(pattern: RegExp, params?: ErrorParams): this {
    return this.check(matches(pattern, params));
  }

  startsWith(prefix: string, params?: ErrorParams): this {
    return this.check(startsWith(prefix, params));
  }

  jsonOwn(): Json {
    const json: Json = { type: "string" };
    const { minimum, maximum, format, patterns } = aggregate(this.def.checks);
    if (minimum !== undefined) json.minLength = minimum;
    if (maximum !== undefined) json.maxLength = maximum;
    if (format) json.format = format;
    if (patterns.length === 1) json.pattern = patterns[0].source;
    else if (patterns.length > 1) json.allOf = patterns.map((p) => ({ pattern: p.source }));
    return json;
  }
}

/** A finite number. */
export class NumberSchema extends Schema<number> {
  protected parseType(payload: Payload): Payload {
    const input = payload.value;
    if (typeof input === "number" && Number.isFinite(input)) return payload;
    wrongType(payload, "number", this);
    if (typeof input === "number") {
      payload.issues.at(-1)!.received = Number.isNaN(input) ? "NaN" : String(input);
    }
    return payload;
  }

  int(params?: ErrorParams): this {
    return this.check(safeInteger(params));
  }

  min(minimum: number, params?: ErrorParams): this {
    return this.check(greaterOrEqual(minimum, params));
  }

  max(maximum: number, params?: ErrorParams): this {
    return this.check(lessOrEqual(maximum, params));
  }

  jsonOwn(): Json {
    const { minimum, maximum, isInt } = aggregate(this.def.checks);
    const json: Json = { type: isInt ? "integer" : "number" };
    if (minimum !== undefined) json.minimum = minimum;
    if (maximum !== undefined) json.maximum = maximum;
    return json;
  }
}

/** true or false. */
export class BooleanSchema extends Schema<boolean> {
  protected parseType(payload: Payload): Payload {
    return typeof payload.value === "boolean" ? payload : wrongType(payload, "boolean", this);
  }

  jsonOwn(): Json {
    return { type: "boolean" };
  }
}

/** null. */
export class NullSchema extends Schema<null> {
  protected parseType(payload: Payload): Payload {
    return payload.value === null ? payload : wrongType(payload, "null", this);
  }

  jsonOwn(): Json {
    return { type: "null" };
  }
}

/** Anything. */
export class UnknownSchema extends Schema<unknown> {
  protected parseType(payload: Payload): Payload {
    return payload;
  }

  jsonOwn(): Json {
    return {};
  }
}

/** The primitive types a literal or an enum may hold. */
export type Primitive = string | number | boolean | null;

/** Exactly one value. */
export class LiteralSchema<T extends Primitive> extends Schema<T> {
  constructor(readonly value: T, params?: ErrorParams) {
    super({ error: errorMap(params) });
  }

  protected parseType(payload: Payload): Payload {
    if (payload.value === this.value) return payload;
    payload.issues.push({ code: "invalid_value", values: [this.value], input: payload.value, inst: this });
    return payload;
  }

  jsonOwn(): Json {
    return { type: this.value === null ? "null" : typeof this.value, const: this.value };
  }
}

/** One of a list of strings. */
export class EnumSchema<T extends readonly string[]> extends Schema<T[number]> {
  constructor(readonly options: T, params?: ErrorParams) {
    super({ error: errorMap(params) });
  }

  protected parseType(payload: Payload): Payload {
    if ((this.options as readonly unknown[]).includes(payload.value)) return payload;
    payload.issues.push({
      code: "invalid_value",
      values: [...this.options],
      input: payload.value,
      inst: this,
    });
    return payload;
  }

  jsonOwn(): Json {
    return { type: "string", enum: [...this.options] };
  }
}
