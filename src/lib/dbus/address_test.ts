import assert from "node:assert/strict";
import { parseAddress } from "./address.ts";
import { hexUid } from "./auth.ts";

Deno.test("parseAddress reads unix paths and ignores guid", () => {
  assert.deepEqual(parseAddress("unix:path=/tmp/dbus-XNIv2eBA5S,guid=6985940cbe"), [
    { path: "/tmp/dbus-XNIv2eBA5S", source: "unix:path=/tmp/dbus-XNIv2eBA5S,guid=6985940cbe" },
  ]);
});

Deno.test("parseAddress maps abstract sockets to a leading NUL", () => {
  assert.equal(parseAddress("unix:abstract=/tmp/dbus-abc,guid=1")[0].path, "\0/tmp/dbus-abc");
});

Deno.test("parseAddress keeps unix entries in order and skips other transports", () => {
  const paths = parseAddress("tcp:host=localhost,port=1;unix:path=/a;unix:abstract=b").map((s) => s.path);
  assert.deepEqual(paths, ["/a", "\0b"]);
});

Deno.test("parseAddress undoes percent escapes", () => {
  assert.equal(parseAddress("unix:path=/tmp/a%2cb%20c%C3%A9")[0].path, "/tmp/a,b cé");
});

Deno.test("parseAddress rejects addresses without a unix socket", () => {
  assert.throws(() => parseAddress("tcp:host=x,port=1"), TypeError);
  assert.throws(() => parseAddress(""), TypeError);
  assert.throws(() => parseAddress("unix:tmpdir=/tmp"), TypeError);
});

Deno.test("hexUid hex-encodes the decimal uid", () => {
  assert.equal(hexUid(0), "30");
  assert.equal(hexUid(1000), "31303030");
});
