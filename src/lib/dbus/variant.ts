/**
 * The JS shape of a D-Bus variant.
 *
 * @module
 */

/** A value tagged with its own signature (D-Bus type `v`). */
export interface Variant<T = unknown> {
  /** Signature of exactly one complete type, such as `"s"` or `"a{sv}"`. */
  readonly signature: string;
  readonly value: T;
}

/**
 * Builds a variant.
 *
 * @example
 * ```ts
 * import { variant } from "./variant.ts";
 * const enabled = variant("b", true);
 * ```
 */
export function variant<T>(signature: string, value: T): Variant<T> {
  return { signature, value };
}

/** True when `value` looks like a {@linkcode Variant}. */
export function isVariant(value: unknown): value is Variant {
  return typeof value === "object" && value !== null && "signature" in value && "value" in value &&
    typeof (value as Variant).signature === "string";
}
