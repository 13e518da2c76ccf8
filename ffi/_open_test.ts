import assert from "node:assert/strict";
import { asDriverError } from "../src/ports/errors.ts";
import { LibraryLoadError, NativeError, unwrapPointer, unwrapStatus, unwrapZero } from "./_errors.ts";
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

Deno.test("openLibrary with an override pointing at nothing throws LibraryLoadError naming library and package", () => {
  const name = `cuatest${crypto.randomUUID().slice(0, 8)}`;
  const variable = `CUA_DRIVER_LIB_${name.toUpperCase()}`;
  Deno.env.set(variable, "/nonexistent/libcuatest.so");
  try {
    const lib = openLibrary(
      name,
      ["libc.so.6"],
      { getpid: { parameters: [], result: "i32" } },
      "libcuatest1",
    );
    assert.equal(lib.available(), false);
    let thrown: unknown;
    try {
      lib.symbols.getpid();
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof LibraryLoadError);
    const failure = asDriverError(thrown);
    assert.equal(failure.code, "library_unavailable");
    assert.equal(failure.data.library, name);
    assert.equal(failure.data.package, "libcuatest1");
    assert.deepEqual(failure.data.tried, ["/nonexistent/libcuatest.so"]);
    assert.match(String(failure.data.hint), /install the libcuatest1 package, or set CUA_DRIVER_LIB_/);
  } finally {
    Deno.env.delete(variable);
  }
});

Deno.test("unwrap helpers throw NativeError naming the symbol, which maps to native_call_failed", () => {
  assert.equal(unwrapStatus("XQueryPointer", 1), 1);
  assert.equal(unwrapPointer("XOpenDisplay", 42), 42);
  unwrapZero("TessBaseAPIRecognize", 0);
  for (
    const fail of [
      () => unwrapStatus("XQueryPointer", 0),
      () => unwrapPointer("XOpenDisplay", null),
      () => unwrapZero("TessBaseAPIRecognize", -1, "no image"),
    ]
  ) {
    let thrown: unknown;
    try {
      fail();
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof NativeError);
    const failure = asDriverError(thrown);
    assert.equal(failure.code, "native_call_failed");
    assert.equal(failure.data.symbol, (thrown as NativeError).symbol);
    assert.match(failure.message, new RegExp(`^${(thrown as NativeError).symbol} failed`));
  }
});
