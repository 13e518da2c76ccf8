import assert from "node:assert/strict";
import { Role, ROLE_NAMES, roleName } from "./roles.ts";

Deno.test("roleName names the common AT-SPI roles", () => {
  assert.equal(roleName(43), "push button");
  assert.equal(roleName(7), "check box");
  assert.equal(roleName(61), "text");
  assert.equal(roleName(Role.FRAME), "frame");
  assert.equal(roleName(29), "label");
  assert.equal(roleName(35), "menu item");
  assert.equal(roleName(51), "slider");
  assert.equal(roleName(Role.APPLICATION), "application");
  assert.equal(roleName(9999), "unknown");
  assert.equal(roleName(-1), "unknown");
});

/** libatspi, when installed, is the reference for the names (atspi_role_get_name). */
function openLibatspi() {
  try {
    return Deno.dlopen("libatspi.so.0", {
      // gchar *atspi_role_get_name (AtspiRole role)
      atspi_role_get_name: { parameters: ["i32"], result: "pointer" },
    });
  } catch {
    return null;
  }
}

Deno.test({
  name: "ROLE_NAMES matches libatspi's atspi_role_get_name",
  ignore: Deno.build.os !== "linux" || openLibatspi() === null,
  fn() {
    const lib = openLibatspi()!;
    try {
      let compared = 0;
      for (let role = 0; role < ROLE_NAMES.length; role++) {
        const pointer = lib.symbols.atspi_role_get_name(role);
        if (pointer === null) break;
        const name = Deno.UnsafePointerView.getCString(pointer);
        if (name === "last defined") break; // the enum's end marker in this libatspi
        assert.equal(ROLE_NAMES[role], name, `role ${role}`);
        compared++;
      }
      assert.ok(compared >= 129, `compared ${compared} roles`);
    } finally {
      lib.close();
    }
  },
});
