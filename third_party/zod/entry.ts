/**
 * The part of zod the driver uses, named one by one so `deno bundle` keeps only these (and English
 * messages) and leaves out zod's other 63 locales. scripts/vendor_zod.ts bundles this file into
 * zod.js, which deno.json maps "zod" to: a one-shot CLI call then loads one local module instead of
 * starting Deno's npm resolver for 94 zod modules (about 50 ms of a process's start here).
 *
 * A member missing here fails at run time, not in `deno check` (the types are npm zod's):
 * tests/contract/zod_vendor_test.ts finds every `z.<name>` in the code and fails on one this lacks.
 *
 * @module
 */
import {
  array,
  boolean,
  enum as enum_,
  literal,
  null as null_,
  number,
  object,
  prettifyError,
  record,
  strictObject,
  string,
  toJSONSchema,
  tuple,
  union,
  unknown,
  ZodError,
  ZodNullable,
  ZodNumber,
  ZodOptional,
  ZodType,
} from "npm:zod@4.6.7";

/** zod's `z`, with the members above. */
export const z = Object.freeze({
  array,
  boolean,
  enum: enum_,
  literal,
  null: null_,
  number,
  object,
  prettifyError,
  record,
  strictObject,
  string,
  toJSONSchema,
  tuple,
  union,
  unknown,
  ZodError,
  ZodNullable,
  ZodNumber,
  ZodOptional,
  ZodType,
});
