import assert from "node:assert/strict";
import { discoverDesktop, xServerAuth } from "./desktop_discovery.ts";

Deno.test("xServerAuth reads the display and cookie file of an X server's command line", () => {
  assert.deepEqual(
    xServerAuth([
      "/usr/lib/xorg/Xorg",
      "vt7",
      "-displayfd",
      "3",
      "-auth",
      "/run/user/1000/gdm/Xauthority",
      ":0",
    ]),
    { number: "0", auth: "/run/user/1000/gdm/Xauthority" },
  );
  assert.deepEqual(xServerAuth(["Xvfb", ":61", "-auth", "/tmp/x", "-noreset"]), {
    number: "61",
    auth: "/tmp/x",
  });
  assert.equal(xServerAuth(["Xvfb", ":61"]), null, "no -auth: no cookie file");
  assert.equal(xServerAuth(["bash", ":0", "-auth", "/tmp/x"]), null, "not an X server");
  assert.equal(xServerAuth([]), null);
});

Deno.test("discoverDesktop finds nothing without X sockets of the user and says why", async () => {
  const empty = await Deno.makeTempDir();
  try {
    const found = await discoverDesktop({
      mode: "system",
      env: (name) => ({ XDG_RUNTIME_DIR: empty, HOME: empty } as Record<string, string>)[name],
      socketDir: empty,
      uid: 4242,
    });
    assert.equal(found.chosen, null);
    assert.match(found.reason, /no X socket in .* belongs to uid 4242/);
    assert.equal(found.sessionBus, null, `${empty}/bus does not exist`);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
