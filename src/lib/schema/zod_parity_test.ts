/**
 * The schema module against zod 4.6.7 itself (the MCP SDK's dependency, so in the lock and the
 * cache): the same schemas built with both, every builder and method the tools use, must give the
 * same JSON Schema (key order included) for input and output, and the same parse of every value in
 * a corpus (data, issue codes, paths, messages, keys, and prettifyError's text).
 */
import assert from "node:assert/strict";
// The reference, for this test only: the driver itself never loads zod.
// deno-lint-ignore no-import-prefix
import { z as zod } from "npm:zod@4.6.7";
import { z as ours } from "./mod.ts";

// deno-lint-ignore no-explicit-any
type Builder = any;

/** The same schemas, from either library's `z`. */
function samples(z: Builder): Record<string, Builder> {
  const session = z.string().max(200).optional().describe("Session label").meta({ shared: "session" });
  const pid = z.number().int().min(1).describe("Process id").meta({ shared: "pid" });
  const target = z.union([
    z.strictObject({
      kind: z.literal("window"),
      pid: z.number().int().min(1),
      window_id: z.number().int().min(1),
    }),
    z.strictObject({ kind: z.literal("desktop"), display_id: z.string().optional() }),
  ]).nullable().optional().describe("{kind, pid, window_id}").meta({ shared: "target" });
  return {
    scalars: z.strictObject({
      session,
      pid,
      text: z.string().min(1).max(5).describe("Up to 5"),
      count: z.number().int().min(1).max(9).optional(),
      ratio: z.number().min(-1.5).max(2.5),
      flag: z.boolean().optional().describe("A flag").meta({ legacy: true }),
      nothing: z.null().optional(),
      anything: z.unknown().optional().describe("Anything"),
      word: z.literal("x").optional(),
      yes: z.literal(true).optional(),
      three: z.literal(3).optional(),
      mode: z.enum(["auto", "on", "off"]).default("auto"),
      name: z.string().regex(/^[a-z]{1,4}$/, "lower-case letters").optional(),
      dir: z.string().startsWith("/").optional(),
    }),
    wrappers: z.strictObject({
      target,
      maybe: z.string().nullable(),
      either: z.boolean().nullable().optional().describe("Either"),
      size: z.number().int().default(5).describe("Five by default"),
      nested: z.strictObject({ on: z.boolean().default(false) }).default({ on: false }),
      list: z.array(z.string().min(1)).default([]),
    }),
    structures: z.object({
      names: z.array(z.string()).min(1).max(2),
      point: z.tuple([z.number(), z.number()]).optional().describe("x, y"),
      args: z.record(z.string(), z.unknown()).default({}).describe("Arguments"),
      expand: z.union([z.array(z.string()), z.literal("all")]).optional(),
      value: z.union([z.number(), z.string(), z.boolean(), z.null()]).optional(),
      actions: z.record(z.string(), z.array(z.string())).optional(),
    }),
    catchall: z.object({ is_error: z.boolean() }).catchall(z.unknown()),
    refined: z.strictObject({ text: z.string().min(1), delay: z.number().int().min(0).optional() }).refine(
      (v: { text: string; delay?: number }) => [...v.text].length * (v.delay ?? 0) <= 10,
      { path: ["delay"], message: "text x delay too long" },
    ),
    superRefined: z.strictObject({
      timeout: z.number().int().min(0).default(5),
      samples: z.number().optional(),
    })
      .superRefine((v: { timeout: number; samples?: number }, ctx: Builder) => {
        if (v.timeout === 0 && v.samples !== undefined) {
          ctx.addIssue({ code: "custom", path: ["samples"], message: "must be 1" });
        }
      }),
    customErrors: z.strictObject({
      max: z.number({ error: "RULE" }).int({ error: "RULE" }).min(0, { error: "RULE" }).optional(),
      key: z.string().min(1).optional(),
    }, {
      error: (issue: { code: string; keys?: string[] }) =>
        issue.code === "unrecognized_keys" ? `Unknown key ${(issue.keys ?? []).join(", ")}` : undefined,
    }),
    extended: z.object({ a: z.string() }).extend({ b: z.number().nullable() }),
    omitted: z.strictObject({ a: z.string(), b: z.number(), c: z.boolean().optional() }).omit({ b: true }),
    outputShape: z.object({
      ok: z.boolean(),
      items: z.array(z.object({ id: z.number().int(), label: z.string().nullable() })),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
    }),
  };
}

const VALUES: unknown[] = [
  undefined,
  null,
  0,
  1,
  2.5,
  -3,
  1e20,
  "",
  "x",
  "abcdef",
  "ABC",
  "/tmp",
  "all",
  "auto",
  "𝒳𝒳𝒳",
  [],
  [1],
  ["a"],
  ["a", "b", "c"],
  [1, 2],
  [1, 2, 3],
  {},
  { kind: "window", pid: 1, window_id: 2 },
  { kind: "window", pid: 0 },
  { kind: "desktop" },
  { kind: "desktop", extra: 1 },
  { on: "yes" },
  true,
  false,
];

/** Roughly valid objects for each sample, the starting point of the corpus. */
const BASES: Record<string, Record<string, unknown>> = {
  scalars: { pid: 4, text: "abc", ratio: 1 },
  wrappers: { maybe: null },
  structures: { names: ["a"] },
  catchall: { is_error: false, extra: [1] },
  refined: { text: "abcd", delay: 2 },
  superRefined: { timeout: 0, samples: 2 },
  customErrors: { max: 3 },
  extended: { a: "x", b: 1 },
  omitted: { a: "x", c: true },
  outputShape: { ok: true, items: [{ id: 1, label: null }] },
};

function corpus(name: string): unknown[] {
  const base = BASES[name];
  const inputs: unknown[] = [...VALUES, base, { ...base, unknown_key: 1 }, { ...base, z1: 1, z2: 2 }];
  for (const key of Object.keys(samples(ours)[name].shape ?? base)) {
    for (const value of VALUES) inputs.push({ ...base, [key]: value });
    const { [key]: _left, ...without } = base;
    inputs.push(without);
  }
  return inputs;
}

// deno-lint-ignore no-explicit-any
function parsed(schema: any, z: Builder, input: unknown): unknown {
  const result = schema.safeParse(input);
  if (result.success) return { data: JSON.stringify(result.data) };
  return {
    issues: result.error.issues.map((issue: Record<string, unknown>) => ({
      code: issue.code,
      path: issue.path,
      message: issue.message,
      keys: issue.keys,
    })),
    pretty: z.prettifyError(result.error),
  };
}

Deno.test("schema module writes zod's JSON Schema for every sample, input and output, key order included", () => {
  const theirs = samples(zod);
  const mine = samples(ours);
  for (const name of Object.keys(theirs)) {
    for (const io of ["input", "output"] as const) {
      const expected = JSON.stringify(zod.toJSONSchema(theirs[name], { io, unrepresentable: "any" }));
      const actual = JSON.stringify(ours.toJSONSchema(mine[name], { io, unrepresentable: "any" }));
      assert.equal(actual, expected, `${name} (${io})`);
    }
  }
});

Deno.test("schema module parses a corpus as zod does: data, issues, messages and prettifyError", () => {
  const theirs = samples(zod);
  const mine = samples(ours);
  let compared = 0;
  for (const name of Object.keys(theirs)) {
    for (const input of corpus(name)) {
      assert.deepEqual(
        parsed(mine[name], ours, input),
        parsed(theirs[name], zod, input),
        `${name}: ${JSON.stringify(input)}`,
      );
      compared++;
    }
  }
  assert.ok(compared > 1000, `${compared} values compared`);
});

Deno.test("schema module's parse throws a SchemaError with zod's issues, and safeParse leaves input alone", () => {
  const schema = ours.strictObject({ a: ours.number().int().default(1), b: ours.string().optional() });
  assert.deepEqual(schema.parse({}), { a: 1 });
  const input = { a: 1.5, c: true };
  const frozen = JSON.stringify(input);
  assert.throws(() => schema.parse(input), (error: unknown) => {
    assert.ok(error instanceof ours.SchemaError);
    assert.deepEqual(error.issues.map((i) => i.code), ["invalid_type", "unrecognized_keys"]);
    return true;
  });
  assert.equal(JSON.stringify(input), frozen);
});
