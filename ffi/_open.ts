/**
 * The one place that calls `Deno.dlopen`: lazy, cached, with candidate paths and
 * an environment override (`CUA_DRIVER_LIB_<NAME>`). When the override is set, only it is
 * tried: a wrong override fails loudly instead of silently loading another copy.
 *
 * Importing a binding never opens anything, so every OS's bindings can be
 * type-checked and bundled on any host.
 *
 * @module
 */
import { LibraryLoadError } from "./_errors.ts";

/** A lazily opened library. */
export interface LazyLibrary<S extends Deno.ForeignLibraryInterface> {
  /** The symbols; opens the library on first access. @throws {LibraryLoadError} */
  readonly symbols: Deno.DynamicLibrary<S>["symbols"];
  /** True if the library opens (tries once, caches the answer). */
  available(): boolean;
  /** Forgets a cached failure and tries again (after the library was installed). */
  retry(): boolean;
  /** Library name, for messages. */
  readonly name: string;
}

/**
 * Declares a library opened on first use.
 *
 * @param name Short name; the override variable is `CUA_DRIVER_LIB_<NAME>` upper-cased.
 * @param candidates Paths tried in order after the override.
 * @param symbols The symbol table.
 */
export function openLibrary<S extends Deno.ForeignLibraryInterface>(
  name: string,
  candidates: readonly string[],
  symbols: S,
): LazyLibrary<S> {
  let library: Deno.DynamicLibrary<S> | null = null;
  let failure: LibraryLoadError | null = null;
  const overrideVariable = `CUA_DRIVER_LIB_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;

  function open(): Deno.DynamicLibrary<S> {
    if (library) return library;
    if (failure) throw failure;
    const override = Deno.env.get(overrideVariable);
    const paths = override ? [override] : [...candidates];
    let lastError: unknown;
    for (const path of paths) {
      try {
        library = Deno.dlopen(path, symbols);
        return library;
      } catch (error) {
        lastError = error;
      }
    }
    failure = new LibraryLoadError(name, paths, overrideVariable, { cause: lastError });
    throw failure;
  }

  return {
    name,
    get symbols() {
      return open().symbols;
    },
    available() {
      try {
        open();
        return true;
      } catch {
        return false;
      }
    },
    retry() {
      failure = null;
      return this.available();
    },
  };
}
