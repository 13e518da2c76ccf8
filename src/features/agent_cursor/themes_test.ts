import assert from "node:assert/strict";
import { findTheme, installedThemes } from "./themes.ts";

Deno.test("installedThemes lists the built-ins, then valid local theme files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/sunset.json`,
      JSON.stringify({
        id: "local.sunset",
        version: "2.1.0",
        fill: "#ff7700",
        outline: "#000000",
        accent: "#ffffff",
      }),
    );
    await Deno.writeTextFile(`${dir}/broken.json`, "{ not json");
    await Deno.writeTextFile(
      `${dir}/bad_colour.json`,
      JSON.stringify({
        id: "local.bad",
        version: "1",
        fill: "orange",
        outline: "#000000",
        accent: "#ffffff",
      }),
    );
    await Deno.writeTextFile(
      `${dir}/shadow.json`,
      JSON.stringify({
        id: "cua.default",
        version: "9",
        fill: "#000000",
        outline: "#000000",
        accent: "#000000",
      }),
    );
    const ids = installedThemes(dir).map((t) => t.id);
    assert.deepEqual(ids, ["cua.default", "cua.contrast", "cua.mono", "local.sunset"]);
    const sunset = findTheme("local.sunset", dir)!;
    assert.equal(sunset.version, "2.1.0");
    assert.equal(sunset.style.scale, 1);
    assert.equal(findTheme("cua.default", dir)!.source, "builtin", "a local file never replaces a built-in");
    assert.equal(findTheme("local.bad", dir), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
