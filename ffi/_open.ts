/**
 * The one place that calls `Deno.dlopen`: lazy, cached, with candidate paths and
 * an environment override (`CUA_DRIVER_LIB_<NAME>`). When the override is set, only it is
 * tried: a wrong override fails loudly instead of silently loading another copy. A library
 * that cannot be opened throws {@linkcode LibraryLoadError} (`library_unavailable`, naming
 * the library and the package that provides it).
 *
 * Importing a binding never opens anything, so every OS's bindings can be type-checked and
 * bundled on any host. Symbols are bound one by one on first use: Deno builds a call trampoline
 * per bound symbol, which a one-shot CLI call would otherwise pay for symbols it never calls.
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
 * @param packageName The OS package that provides the library, for the `library_unavailable` message.
 */
export function openLibrary<S extends Deno.ForeignLibraryInterface>(
  name: string,
  candidates: readonly string[],
  symbols: S,
  packageName: string | null = null,
): LazyLibrary<S> {
  let path: string | null = null;
  let failure: LibraryLoadError | null = null;
  let bound: Deno.DynamicLibrary<S>["symbols"] | null = null;
  /** Every handle stays open: the process uses its symbols until it exits. */
  const handles: Deno.DynamicLibrary<Deno.ForeignLibraryInterface>[] = [];
  const overrideVariable = `CUA_DRIVER_LIB_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;

  /** Loads the library (no symbols yet) from the first path that opens; returns that path. */
  function open(): string {
    if (path) return path;
    if (failure) throw failure;
    const override = Deno.env.get(overrideVariable);
    const paths = override ? [override] : [...candidates];
    let lastError: unknown;
    for (const candidate of paths) {
      try {
        handles.push(Deno.dlopen(candidate, {}));
        path = candidate;
        return path;
      } catch (error) {
        lastError = error;
      }
    }
    failure = new LibraryLoadError(name, paths, overrideVariable, packageName, { cause: lastError });
    throw failure;
  }

  /** The symbol table, each symbol bound on its first access and then a plain property. */
  function lazySymbols(): Deno.DynamicLibrary<S>["symbols"] {
    const from = open();
    const table = {} as Deno.DynamicLibrary<S>["symbols"];
    for (const symbol of Object.keys(symbols)) {
      Object.defineProperty(table, symbol, {
        configurable: true,
        enumerable: true,
        get() {
          let handle: Deno.DynamicLibrary<Deno.ForeignLibraryInterface>;
          try {
            handle = Deno.dlopen(from, { [symbol]: symbols[symbol] } as Deno.ForeignLibraryInterface);
          } catch (error) {
            // A required symbol this copy of the library lacks (optional ones come back null).
            throw new LibraryLoadError(`${name} (symbol ${symbol})`, [from], overrideVariable, packageName, {
              cause: error,
            });
          }
          handles.push(handle);
          const value = handle.symbols[symbol];
          Object.defineProperty(table, symbol, { value, enumerable: true, writable: false });
          return value;
        },
      });
    }
    return table;
  }

  return {
    name,
    get symbols() {
      bound ??= lazySymbols();
      return bound;
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
