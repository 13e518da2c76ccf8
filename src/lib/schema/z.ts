/**
 * The members of `z`: zod 4's builder functions for the schemas the driver uses, under zod's
 * names, so a tool's schema reads as it would with zod.
 *
 * @module
 */
import { type AnySchema, errorMap, type ErrorParams, type Json, Schema } from "./schema.ts";
import {
  BooleanSchema,
  EnumSchema,
  LiteralSchema,
  NullSchema,
  NumberSchema,
  type Primitive,
  StringSchema,
  UnknownSchema,
} from "./scalars.ts";
import {
  ArraySchema,
  ObjectSchema,
  RecordSchema,
  type Shape,
  TupleSchema,
  UnionSchema,
} from "./structures.ts";

export { prettifyError, SchemaError } from "./issues.ts";
export type { Issue } from "./issues.ts";
export { toJSONSchema } from "./json_schema.ts";
export { DefaultSchema, NullableSchema, OptionalSchema, Schema } from "./schema.ts";
export type { AnySchema, infer, input, output, SafeParseResult } from "./schema.ts";
export {
  ArraySchema,
  BooleanSchema,
  EnumSchema,
  LiteralSchema,
  NullSchema,
  NumberSchema,
  ObjectSchema,
  RecordSchema,
  StringSchema,
  TupleSchema,
  UnionSchema,
  UnknownSchema,
};

export function string(params?: ErrorParams): StringSchema {
  return new StringSchema({ error: errorMap(params) });
}

export function number(params?: ErrorParams): NumberSchema {
  return new NumberSchema({ error: errorMap(params) });
}

export function boolean(params?: ErrorParams): BooleanSchema {
  return new BooleanSchema({ error: errorMap(params) });
}

function null_(params?: ErrorParams): NullSchema {
  return new NullSchema({ error: errorMap(params) });
}

export function unknown(): UnknownSchema {
  return new UnknownSchema();
}

export function literal<const T extends Primitive>(value: T, params?: ErrorParams): LiteralSchema<T> {
  return new LiteralSchema(value, params);
}

function enum_<const T extends readonly string[]>(values: T, params?: ErrorParams): EnumSchema<T> {
  return new EnumSchema(values, params);
}

export { enum_ as enum, null_ as null };

/** An object that drops keys it does not know. */
export function object<S extends Shape>(shape: S, params?: ErrorParams): ObjectSchema<S> {
  return new ObjectSchema(shape, "strip", params);
}

/** An object that refuses keys it does not know (`unrecognized_keys`). */
export function strictObject<S extends Shape>(shape: S, params?: ErrorParams): ObjectSchema<S> {
  return new ObjectSchema(shape, "strict", params);
}

export function array<T extends AnySchema>(element: T, params?: ErrorParams): ArraySchema<T> {
  return new ArraySchema(element, { error: errorMap(params) });
}

export function tuple<const T extends readonly AnySchema[]>(items: T): TupleSchema<T> {
  return new TupleSchema(items);
}

export function union<const T extends readonly AnySchema[]>(options: T): UnionSchema<T> {
  return new UnionSchema(options);
}

export function record<K extends Schema<string>, V extends AnySchema>(
  keys: K,
  values: V,
): RecordSchema<K, V> {
  return new RecordSchema(keys, values);
}

/** A JSON Schema object. */
export type JsonSchema = Json;
