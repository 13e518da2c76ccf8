import assert from "node:assert/strict";
import { familyOf } from "./detect.ts";
import { socketPath } from "./wire/connection.ts";

const globals = (...names: string[]) => names.map((iface) => ({ iface }));

Deno.test("familyOf: by protocol, not by name", () => {
  assert.equal(familyOf(globals("wl_compositor", "zwlr_screencopy_manager_v1")), "wlroots");
  assert.equal(familyOf(globals("wl_compositor", "zwlr_foreign_toplevel_manager_v1")), "wlroots");
  assert.equal(familyOf(globals("wl_compositor", "gtk_shell1", "xdg_activation_v1")), "gnome");
  assert.equal(familyOf(globals("wl_compositor", "org_kde_plasma_shell", "zwlr_layer_shell_v1")), "kde");
  assert.equal(familyOf(globals("wl_compositor", "weston_screenshooter")), "other");
});

Deno.test("socketPath: a name is relative to the runtime directory, a path is itself", () => {
  assert.equal(socketPath("wayland-1", "/run/user/1000"), "/run/user/1000/wayland-1");
  assert.equal(socketPath("/tmp/w/wayland-9", undefined), "/tmp/w/wayland-9");
  assert.equal(socketPath("wayland-1", undefined), null);
});
