/**
 * Schemas for tool arguments and results: the part of zod 4's API the driver uses (`z.string()`,
 * `z.strictObject({...})`, `.optional()`, `.describe()`, `safeParse`, `toJSONSchema`,
 * `prettifyError`), written here instead of loading zod's bundle into every process (a one-shot
 * CLI call builds its tool's schema and validates one call). Parsing, issue messages and JSON
 * Schema are zod 4.6's, held by the tests beside these files.
 *
 * @module
 */
export * as z from "./z.ts";
