import assert from "node:assert/strict";
import {
  BearerAuth,
  checkBind,
  hostAllowed,
  isLoopbackHost,
  NetworkConfigError,
  validateToken,
} from "./auth.ts";

const TOKEN = "a".repeat(32);

Deno.test("validateToken accepts 32 to 4096 characters without whitespace or control characters", () => {
  assert.equal(validateToken(TOKEN), TOKEN);
  assert.equal(validateToken("é".repeat(32)), "é".repeat(32));
  assert.equal(validateToken("b".repeat(4096)).length, 4096);
  for (
    const bad of [
      undefined,
      "",
      "a".repeat(31),
      "b".repeat(4097),
      `${"a".repeat(32)}\n`,
      `${"a".repeat(16)}\t${"a".repeat(16)}`,
    ]
  ) {
    assert.throws(() => validateToken(bad), NetworkConfigError, JSON.stringify(bad)?.slice(0, 20));
  }
});

Deno.test("BearerAuth accepts exactly Bearer <token>", () => {
  const auth = new BearerAuth(TOKEN);
  assert.equal(auth.check(`Bearer ${TOKEN}`), true);
  assert.equal(auth.check(`bearer ${TOKEN}`), true, "the scheme is case-insensitive");
  for (
    const bad of [
      undefined,
      null,
      "",
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${"b".repeat(32)}`,
      "Bearer ",
    ]
  ) {
    assert.equal(auth.check(bad), false, String(bad));
  }
});

Deno.test("isLoopbackHost and checkBind: loopback only without a token", () => {
  for (
    const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST.", "::ffff:127.0.0.1"]
  ) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ["0.0.0.0", "10.0.0.1", "::", "example.com", "localhost.example.com"]) {
    assert.equal(isLoopbackHost(host), false, host);
  }
  assert.throws(() => checkBind("0.0.0.0", undefined), NetworkConfigError);
  checkBind("0.0.0.0", TOKEN);
  checkBind("127.0.0.1", undefined);
});

Deno.test("hostAllowed admits loopback names with the port and refuses rebinding names", () => {
  assert.equal(hostAllowed("127.0.0.1:8080", "127.0.0.1", 8080), true);
  assert.equal(hostAllowed("localhost:8080", "127.0.0.1", 8080), true);
  assert.equal(hostAllowed("[::1]:8080", "127.0.0.1", 8080), true);
  assert.equal(hostAllowed("localhost:8081", "127.0.0.1", 8080), false, "another port");
  assert.equal(hostAllowed("localhost", "127.0.0.1", 8080), false, "no port means 80");
  assert.equal(hostAllowed("evil.example:8080", "127.0.0.1", 8080), false);
  assert.equal(
    hostAllowed("192.168.1.5:8080", "127.0.0.1", 8080),
    false,
    "loopback bind: loopback names only",
  );
  assert.equal(hostAllowed(undefined, "127.0.0.1", 8080), false);
  assert.equal(hostAllowed("192.168.1.5:8080", "0.0.0.0", 8080), true, "a wide bind admits IP literals");
  assert.equal(hostAllowed("evil.example:8080", "0.0.0.0", 8080), false);
});
