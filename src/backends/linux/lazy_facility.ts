/**
 * Facilities of the back end whose code loads on first use: a one-shot CLI call that never
 * touches windows, accessibility, input, the clipboard or text recognition never loads (or links) them.
 *
 * @module
 */

/** A facility and its loader. */
export interface LazyFacility<T extends object> {
  /** Stands in for the facility: each method loads it (once), then runs the real method. */
  readonly facility: T;
  /** Loads it now (or returns the loaded one). */
  load(): Promise<T>;
  /** The facility if it was loaded, else null (for closing only what exists). */
  loaded(): T | null;
}

/**
 * Wraps a facility whose every method returns a promise (WindowBackend, AccessibilityBackend, InputBackend,
 * ClipboardBackend, PerceptionBackend) so that its module loads on the first call.
 *
 * @param load Imports the module and builds the facility; called at most once (a failure is
 *   retried on the next call).
 */
export function lazyFacility<T extends object>(load: () => Promise<T>): LazyFacility<T> {
  let instance: T | null = null;
  let loading: Promise<T> | null = null;
  const get = (): Promise<T> => {
    loading ??= load().then(
      (made) => instance = made,
      (error) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const facility = new Proxy({} as T, {
    get(_target, name) {
      // Not a thenable: `await facility` must not call a method named "then".
      if (name === "then" || typeof name === "symbol") return undefined;
      return async (...args: unknown[]) => {
        const made = instance ?? await get();
        return await (made as Record<string, (...a: unknown[]) => unknown>)[name](...args);
      };
    },
  });
  return { facility, load: get, loaded: () => instance };
}
