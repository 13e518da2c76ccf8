import assert from "node:assert/strict";
import { OSWORLD_PORT, osworldConfig } from "./command.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";
const env = (token?: string) => (name: string) => name === "CUA_DRIVER_OSWORLD_TOKEN" ? token : undefined;

Deno.test("osworldConfig: port 5000 on loopback by default, flags, and the token required", () => {
  assert.deepEqual(osworldConfig([], env(TOKEN)), {
    port: OSWORLD_PORT,
    host: "127.0.0.1",
    filesRoot: null,
    token: TOKEN,
  });
  assert.deepEqual(
    osworldConfig(["--port", "5050", "--host=0.0.0.0", "--files-root", "/srv/osworld"], env(TOKEN)),
    { port: 5050, host: "0.0.0.0", filesRoot: "/srv/osworld", token: TOKEN },
  );
  assert.match(String(osworldConfig([], env())), /needs a bearer token/);
  const short = String(osworldConfig([], env("short-secret")));
  assert.match(short, /32 to 4096/);
  assert.ok(!short.includes("short-secret"), "the token is never echoed");
  for (const bad of [["--port", "0"], ["--port", "70000"], ["--files-root", "relative"], ["--what"]]) {
    assert.equal(typeof osworldConfig(bad, env(TOKEN)), "string", bad.join(" "));
  }
});
