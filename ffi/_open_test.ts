import assert from "node:assert/strict";
import { LibraryLoadError } from "./_errors.ts";
import { openLibrary } from "./_open.ts";

const SYMBOLS = {
  getpid: { parameters: [], result: "i32" },
  cua_driver_no_such_symbol: { parameters: [], result: "void" },
  cua_driver_no_such_optional: { parameters: [], result: "void", optional: true },
} as const satisfies Deno.ForeignLibraryInterface;

Deno.test({
  name: "openLibrary binds each symbol on first use: a missing one fails alone, an optional one is null",
  ignore: Deno.build.os !== "linux",
  fn() {
    const libc = openLibrary("c", ["libc.so.6"], SYMBOLS);
    assert.equal(libc.available(), true, "the library opens although one symbol is missing");
    assert.equal(libc.symbols.getpid(), Deno.pid);
    assert.equal(libc.symbols.getpid, libc.symbols.getpid, "bound once, then a plain property");
    assert.throws(() => libc.symbols.cua_driver_no_such_symbol, (error: unknown) => {
      assert.ok(error instanceof LibraryLoadError);
      assert.match(error.message, /cua_driver_no_such_symbol/);
      return true;
    });
    assert.equal(libc.symbols.cua_driver_no_such_optional, null);
    const missing = openLibrary("nope", ["libcua-driver-does-not-exist.so"], SYMBOLS);
    assert.equal(missing.available(), false);
    assert.throws(() => missing.symbols.getpid, LibraryLoadError);
  },
});
