/**
 * "zod" is third_party/zod/zod.js, a bundle of the zod members third_party/zod/entry.ts names. Held two
 * ways: the committed file is what a fresh bundle of the entry gives (nobody edited it, and the entry was
 * bundled again after a change), and every `z.<name>` the code uses is a member of it (the types are npm
 * zod's whole `z`, so `deno check` passes a member the bundle lacks; the call would fail at run time).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { vendoredZod } from "../../scripts/vendor_zod.ts";
import { typescriptFiles } from "../_helpers/source_files.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Names only types use (`z.infer<typeof schema>`): no value to bundle. */
const TYPE_ONLY = new Set(["infer", "input", "output"]);

Deno.test("third_party/zod/zod.js is a fresh bundle of its entry", async () => {
  const committed = await Deno.readTextFile(`${ROOT}third_party/zod/zod.js`);
  assert.ok(committed === await vendoredZod(), "run: deno run -A scripts/vendor_zod.ts");
});

Deno.test("every z.<name> the code uses is in the vendored zod", async () => {
  const used = new Map<string, string>();
  for (const dir of ["src", "tools", "ffi", "scripts", "tests"]) {
    for await (const path of typescriptFiles(`${ROOT}${dir}`)) {
      const text = await Deno.readTextFile(path);
      if (!/import (type )?\{ z \} from "zod"/.test(text)) continue;
      for (const [, name] of text.matchAll(/\bz\.([A-Za-z_]\w*)/g)) used.set(name, path);
    }
  }
  assert.ok(used.has("strictObject") && used.has("infer"), "the scan finds the tools' schemas");
  const missing = [...used].filter(([name]) => !TYPE_ONLY.has(name) && !(name in z));
  assert.deepEqual(missing, [], "add them to third_party/zod/entry.ts and run scripts/vendor_zod.ts");
});
