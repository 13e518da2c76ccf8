/**
 * D-Bus type signatures: parsing into a small type tree, and printing back.
 *
 * @module
 */

/** Single-character codes of the basic (fixed or string-like) types. */
export type BasicCode = "y" | "b" | "n" | "q" | "i" | "u" | "x" | "t" | "d" | "s" | "o" | "g" | "h";

/** One complete D-Bus type. */
export type DBusType =
  | { readonly kind: "basic"; readonly code: BasicCode }
  | { readonly kind: "variant" }
  | { readonly kind: "array"; readonly element: DBusType }
  | { readonly kind: "struct"; readonly fields: readonly DBusType[] }
  | { readonly kind: "dict_entry"; readonly key: DBusType; readonly value: DBusType };

const BASIC_CODES = new Set("ybnqiuxtdsogh");
/** The spec allows 32 levels of array and 32 of struct nesting; one shared cap is enough here. */
const MAX_DEPTH = 64;

/**
 * Parses a signature into its complete types, in order.
 *
 * @param signature A D-Bus signature such as `"a(so)"` or `"sa{sv}"`.
 * @returns One type per complete type in the signature (empty for `""`).
 * @throws {TypeError} When the signature is malformed.
 */
export function parseSignature(signature: string): DBusType[] {
  if (signature.length > 255) throw new TypeError(`Signature is longer than 255 bytes: "${signature}"`);
  const out: DBusType[] = [];
  let pos = 0;
  const next = (depth: number, inArray: boolean): DBusType => {
    if (depth > MAX_DEPTH) throw new TypeError(`Signature nests too deeply: "${signature}"`);
    const c = signature[pos++];
    if (c === undefined) throw new TypeError(`Signature ends early: "${signature}"`);
    if (BASIC_CODES.has(c)) return { kind: "basic", code: c as BasicCode };
    if (c === "v") return { kind: "variant" };
    if (c === "a") return { kind: "array", element: next(depth + 1, true) };
    if (c === "(") {
      const fields: DBusType[] = [];
      while (signature[pos] !== ")") {
        if (pos >= signature.length) throw new TypeError(`Unclosed struct in signature: "${signature}"`);
        fields.push(next(depth + 1, false));
      }
      pos++;
      if (fields.length === 0) throw new TypeError(`Empty struct in signature: "${signature}"`);
      return { kind: "struct", fields };
    }
    if (c === "{") {
      if (!inArray) throw new TypeError(`Dict entry outside an array in signature: "${signature}"`);
      const key = next(depth + 1, false);
      if (key.kind !== "basic") {
        throw new TypeError(`Dict key is not a basic type in signature: "${signature}"`);
      }
      const value = next(depth + 1, false);
      if (signature[pos++] !== "}") throw new TypeError(`Dict entry must have two types: "${signature}"`);
      return { kind: "dict_entry", key, value };
    }
    throw new TypeError(`Unknown type code "${c}" in signature: "${signature}"`);
  };
  while (pos < signature.length) out.push(next(0, false));
  return out;
}

/** Prints a type back as its signature. */
export function signatureOf(type: DBusType): string {
  switch (type.kind) {
    case "basic":
      return type.code;
    case "variant":
      return "v";
    case "array":
      return "a" + signatureOf(type.element);
    case "struct":
      return "(" + type.fields.map(signatureOf).join("") + ")";
    case "dict_entry":
      return "{" + signatureOf(type.key) + signatureOf(type.value) + "}";
  }
}

const BASIC_ALIGNMENT: Record<BasicCode, number> = {
  y: 1,
  g: 1,
  n: 2,
  q: 2,
  b: 4,
  i: 4,
  u: 4,
  h: 4,
  s: 4,
  o: 4,
  x: 8,
  t: 8,
  d: 8,
};

/** Alignment in bytes of a type's marshalled form. */
export function alignmentOf(type: DBusType): number {
  switch (type.kind) {
    case "basic":
      return BASIC_ALIGNMENT[type.code];
    case "variant":
      return 1;
    case "array":
      return 4;
    case "struct":
    case "dict_entry":
      return 8;
  }
}
