/**
 * Errors raised by the raw bindings, and the one `unwrap` per status convention every
 * native call goes through (sqlite3's `unwrap` model). Each error carries the
 * agent-facing `code` and `data` of the failure, so the registry turns it into a
 * `DriverError` without knowing about FFI (`asDriverError` in `src/ports/errors.ts`).
 *
 * @module
 */

/** A native library could not be opened from any candidate path. */
export class LibraryLoadError extends Error {
  override name = "LibraryLoadError";
  /** The agent-facing failure code. */
  readonly code = "library_unavailable";
  constructor(
    readonly library: string,
    readonly tried: readonly string[],
    readonly overrideVariable: string,
    /** The OS package that provides the library ("libxtst6"), when known. */
    readonly packageName: string | null = null,
    options?: ErrorOptions,
  ) {
    super(
      `Cannot load ${library}${packageName ? ` (package ${packageName})` : ""}: tried ${
        tried.map((p) => `"${p}"`).join(", ")
      } (set ${overrideVariable} to override)`,
      options,
    );
  }

  /** What the failure envelope carries. */
  get data(): Record<string, unknown> {
    return {
      library: this.library,
      package: this.packageName,
      tried: [...this.tried],
      override_variable: this.overrideVariable,
      hint: this.packageName
        ? `install the ${this.packageName} package, or set ${this.overrideVariable} to the library's path`
        : `install ${this.library}, or set ${this.overrideVariable} to the library's path`,
    };
  }
}

/** A native call reported failure. */
export class NativeError extends Error {
  override name = "NativeError";
  /** The agent-facing failure code. */
  readonly code = "native_call_failed";
  constructor(
    /** The C symbol that failed ("XShmGetImage"). */
    readonly symbol: string,
    /** What it returned (a status, an error code), or null for a null pointer. */
    readonly status: number | bigint | null,
    detail?: string,
    /** Extra fields for the envelope (a hint, protocol error codes). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(
      `${symbol} failed${status === null ? " (returned null)" : ` with status ${status}`}${
        detail ? `: ${detail}` : ""
      }`,
    );
  }

  /** What the failure envelope carries. */
  get data(): Record<string, unknown> {
    return {
      symbol: this.symbol,
      status: typeof this.status === "bigint" ? String(this.status) : this.status,
      ...this.extra,
    };
  }
}

/**
 * Checks an Xlib-style `Status` or boolean result, where 0 (false) is failure.
 *
 * @throws {NativeError} naming `symbol` when `status` is 0.
 */
export function unwrapStatus<T extends number | boolean>(symbol: string, status: T, detail?: string): T {
  if (status === 0 || status === false) throw new NativeError(symbol, Number(status), detail);
  return status;
}

/**
 * Checks a C return code where 0 is success (Tesseract, POSIX).
 *
 * @throws {NativeError} naming `symbol` for any other value.
 */
export function unwrapZero(
  symbol: string,
  code: number,
  detail?: string,
  extra?: Record<string, unknown>,
): void {
  if (code !== 0) throw new NativeError(symbol, code, detail, extra);
}

/**
 * Checks a pointer or handle result.
 *
 * @throws {NativeError} naming `symbol` when it is null or 0.
 */
export function unwrapPointer<P>(symbol: string, pointer: P | null | 0 | 0n, detail?: string): P {
  if (pointer === null || pointer === 0 || pointer === 0n) throw new NativeError(symbol, null, detail);
  return pointer as P;
}
