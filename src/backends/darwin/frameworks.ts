/**
 * The one injection point between the macOS back end and the operating system:
 * every framework call the back end makes goes through a {@linkcode Frameworks}
 * value. On a Mac it is {@linkcode systemFrameworks} (the lazily opened symbol
 * tables of `ffi/darwin/*`); unit tests pass a scripted fake of the same tables.
 *
 * @module
 */
import { accessibility, AX_SYMBOLS } from "../../../ffi/darwin/accessibility.ts";
import { appKit, APPKIT_SYMBOLS } from "../../../ffi/darwin/app_kit.ts";
import { CF_SYMBOLS, coreFoundation } from "../../../ffi/darwin/core_foundation.ts";
import { CG_SYMBOLS, coreGraphics } from "../../../ffi/darwin/core_graphics.ts";
import { OBJC_SYMBOLS, objcRuntime } from "../../../ffi/darwin/objc.ts";
import { libSystem, SYSTEM_SYMBOLS } from "../../../ffi/darwin/libsystem.ts";
import { skyLight, SKYLIGHT_SYMBOLS } from "../../../ffi/darwin/skylight.ts";
import { LibraryLoadError } from "../../../ffi/_errors.ts";
import type { LazyLibrary } from "../../../ffi/_open.ts";
import { DriverError } from "../../ports/errors.ts";

/** The callable form of a symbol table. */
export type Symbols<S extends Deno.ForeignLibraryInterface> = Deno.StaticForeignLibraryInterface<S>;

/** Every framework table the back end uses, by short name. */
export const FRAMEWORK_TABLES = {
  cf: CF_SYMBOLS,
  cg: CG_SYMBOLS,
  ax: AX_SYMBOLS,
  objc: OBJC_SYMBOLS,
  appKit: APPKIT_SYMBOLS,
  system: SYSTEM_SYMBOLS,
  skylight: SKYLIGHT_SYMBOLS,
} as const;

/** The short name of a framework table. */
export type FrameworkName = keyof typeof FRAMEWORK_TABLES;

/** The frameworks, as the back end calls them. */
export type Frameworks = { readonly [K in FrameworkName]: Symbols<(typeof FRAMEWORK_TABLES)[K]> };

const LIBRARIES: { readonly [K in FrameworkName]: LazyLibrary<(typeof FRAMEWORK_TABLES)[K]> } = {
  cf: coreFoundation,
  cg: coreGraphics,
  ax: accessibility,
  objc: objcRuntime,
  appKit,
  system: libSystem,
  skylight: skyLight,
};

function open<K extends FrameworkName>(name: K): Frameworks[K] {
  try {
    return LIBRARIES[name].symbols as Frameworks[K];
  } catch (error) {
    if (!(error instanceof LibraryLoadError)) throw error;
    throw new DriverError("library_unavailable", error.message, {
      library: error.library,
      tried: error.tried,
      hint: Deno.build.os === "darwin"
        ? `this macOS does not provide ${error.library}; set ${error.overrideVariable} to its path`
        : `the macOS back end runs only on macOS (${error.library} is a macOS framework)`,
    }, { cause: error });
  }
}

/**
 * The real frameworks, each opened on first use.
 *
 * @throws {DriverError} `library_unavailable` from a property getter when its framework cannot be opened.
 */
export function systemFrameworks(): Frameworks {
  return {
    get cf() {
      return open("cf");
    },
    get cg() {
      return open("cg");
    },
    get ax() {
      return open("ax");
    },
    get objc() {
      return open("objc");
    },
    get appKit() {
      return open("appKit");
    },
    get system() {
      return open("system");
    },
    get skylight() {
      return open("skylight");
    },
  };
}

/** Which frameworks open, by name (for health_report). */
export function frameworkAvailability(): Record<FrameworkName, boolean> {
  return Object.fromEntries(
    Object.entries(LIBRARIES).map(([name, library]) => [name, library.available()]),
  ) as Record<FrameworkName, boolean>;
}
