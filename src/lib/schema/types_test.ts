/**
 * What the schema types infer, checked by the type checker (`deno task check`): a tool's
 * `run(ctx, args)` is typed from its input schema, so a loose inferred type would hide mistakes.
 */
import assert from "node:assert/strict";
import { z } from "./mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
/** Compiles only when `T` is `true`. */
function expectType<T extends true>(_proof?: T): void {}

const shape = z.strictObject({
  text: z.string().min(1).describe("Text"),
  count: z.number().int().optional(),
  mode: z.enum(["auto", "on"]).default("auto"),
  word: z.literal("x"),
  list: z.array(z.boolean()).nullable(),
  either: z.union([z.string(), z.number()]).nullable().optional(),
  pair: z.tuple([z.number(), z.string()]),
  map: z.record(z.string(), z.unknown()),
});

Deno.test("schema types: an object infers required, optional and defaulted keys as zod does", () => {
  expectType<
    Equal<z.infer<typeof shape>, {
      text: string;
      count?: number | undefined;
      mode: "auto" | "on";
      word: "x";
      list: boolean[] | null;
      either?: string | number | null | undefined;
      pair: [number, string];
      map: Record<string, unknown>;
    }>
  >(true);
  expectType<Equal<z.input<typeof shape>["mode"], "auto" | "on" | undefined>>(true);
  expectType<Equal<z.output<typeof shape>, z.infer<typeof shape>>>(true);
  const extended = shape.extend({ more: z.boolean() }).omit({ text: true });
  expectType<Equal<keyof z.infer<typeof extended>, Exclude<keyof z.infer<typeof shape>, "text"> | "more">>(
    true,
  );
  const parsed = shape.parse({ text: "a", word: "x", list: null, pair: [1, "b"], map: {} });
  assert.equal(parsed.mode, "auto");
});
