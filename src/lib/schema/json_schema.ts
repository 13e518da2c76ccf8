/**
 * JSON Schema (draft 2020-12) of a schema, key for key as zod 4's `toJSONSchema` writes it with
 * reused schemas inlined: a wrapper (optional, default) is its inner schema's JSON with its own
 * keys first; a description and `meta()` data follow a schema's own keys; a union of bare types
 * becomes one `type` list.
 *
 * @module
 */
import type { AnySchema, Io, Json } from "./schema.ts";

/** Options of {@linkcode toJSONSchema}. */
export interface JsonSchemaOptions {
  /** "input": what callers may send (defaults optional); "output" (default): what parsing gives. */
  io?: Io;
  /** Accepted for zod compatibility: every schema here is representable. */
  unrepresentable?: "any" | "throw";
}

/** The JSON Schema of `schema`, with `$schema`. */
export function toJSONSchema(schema: AnySchema, options: JsonSchemaOptions = {}): Json {
  const io = options.io ?? "output";
  const build = (node: AnySchema): Json => {
    const own = node.jsonOwn(io, build);
    Object.assign(own, node.def.meta);
    const inner = node.jsonRef();
    const json = inner ? { ...own } : own;
    if (inner) {
      for (const [key, value] of Object.entries(build(inner))) if (!(key in json)) json[key] = value;
    }
    compactTypeUnion(json);
    return json;
  };
  return JSON.parse(
    JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...build(schema) }),
  );
}

/** `anyOf` of bare `{type}` branches becomes `type: [...]`, as zod writes nullable scalars. */
function compactTypeUnion(json: Json): void {
  const options = json.anyOf;
  if (!Array.isArray(options) || options.length === 0 || json.type !== undefined) return;
  const types: string[] = [];
  for (const option of options as Json[]) {
    if (!option || typeof option !== "object") return;
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== "type") return;
    for (const member of [option.type].flat()) {
      if (typeof member !== "string") return;
      if (!types.includes(member)) types.push(member);
    }
  }
  delete json.anyOf;
  json.type = types.length === 1 ? types[0] : types;
}
