/**
 * Errors raised by the raw bindings. `src/platform/` turns them into DriverErrors.
 *
 * @module
 */

/** A native library could not be opened from any candidate path. */
export class LibraryLoadError extends Error {
  override name = "LibraryLoadError";
  constructor(
    readonly library: string,
    readonly tried: readonly string[],
    readonly overrideVariable: string,
    options?: ErrorOptions,
  ) {
    super(
      `Cannot load ${library}: tried ${
        tried.map((p) => `"${p}"`).join(", ")
      } (set ${overrideVariable} to override)`,
      options,
    );
  }
}

/** A native call reported failure. */
export class NativeError extends Error {
  override name = "NativeError";
  constructor(readonly api: string, readonly status: number, detail?: string) {
    super(`${api} failed with status ${status}${detail ? `: ${detail}` : ""}`);
  }
}
