import assert from "node:assert/strict";
import { DriverError } from "../ports/errors.ts";
import { createBackend, localSocketsFor, preloadBackend, SUPPORTED_OS, systemFor } from "./mod.ts";

Deno.test("createBackend refuses an OS it has no back end for, instead of another OS's", async () => {
  for (const os of ["freebsd", "netbsd", "aix", "toString"] as typeof Deno.build.os[]) {
    for (const make of [() => createBackend(os), () => systemFor(os), () => localSocketsFor(os)]) {
      await assert.rejects(make, (e: unknown) => {
        assert.ok(e instanceof DriverError, String(e));
        assert.equal(e.code, "unsupported_platform");
        assert.match(e.message, new RegExp(`"${os}"`));
        assert.match(String(e.data?.hint), /linux, windows, darwin/);
        return true;
      });
    }
    preloadBackend(os); // loads nothing, throws nothing
  }
});

Deno.test("SUPPORTED_OS lists the OS folders the table loads", () => {
  assert.deepEqual([...SUPPORTED_OS].sort(), ["darwin", "linux", "windows"]);
});

Deno.test("systemFor gives this host's own system facility", async () => {
  assert.ok(SUPPORTED_OS.includes(Deno.build.os));
  const system = await systemFor();
  assert.equal(typeof system.findExecutable, "function");
});
