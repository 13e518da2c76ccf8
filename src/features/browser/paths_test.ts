import assert from "node:assert/strict";
import { join } from "node:path";
import { DriverError } from "../../ports/errors.ts";
import { systemFor } from "../../backends/mod.ts";
import { checkDownloadRoot, checkUploadFiles } from "./paths.ts";

const system = await systemFor("linux");

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DriverError);
    assert.equal(error.code, "protected_resource_scope_invalid");
    return error.data.reason as string;
  }
  return "accepted";
}

Deno.test("checkUploadFiles takes absolute regular files and refuses links, folders and relative paths", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "a.txt");
    await Deno.writeTextFile(file, "a");
    await Deno.symlink(file, join(dir, "link.txt"));
    await Deno.symlink(dir, join(dir, "linked-dir"));
    assert.equal(await reason(checkUploadFiles([file])), "accepted");
    assert.equal(await reason(checkUploadFiles(["a.txt"])), "not_absolute");
    assert.equal(await reason(checkUploadFiles([join(dir, "missing.txt")])), "missing");
    assert.equal(await reason(checkUploadFiles([join(dir, "link.txt")])), "symlink");
    assert.equal(await reason(checkUploadFiles([join(dir, "linked-dir", "a.txt")])), "symlink_component");
    assert.equal(await reason(checkUploadFiles([dir])), "not_regular_file");
    assert.equal(await reason(checkUploadFiles(Array(33).fill(file))), "too_many_files");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkDownloadRoot approves the user's own directories only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.symlink(dir, `${dir}-link`);
    assert.equal(await checkDownloadRoot(system, `${dir}/`), dir);
    for (const root of ["/etc", "/usr/share", "/proc", "/", "/tmp", "/home"]) {
      assert.equal(await reason(checkDownloadRoot(system, root)), "outside_approved_directories", root);
    }
    assert.equal(await reason(checkDownloadRoot(system, `${dir}-link`)), "symlink");
    assert.equal(await reason(checkDownloadRoot(system, join(dir, "nope"))), "missing");
    assert.equal(await reason(checkDownloadRoot(system, "downloads")), "not_absolute");
  } finally {
    await Deno.remove(`${dir}-link`);
    await Deno.remove(dir, { recursive: true });
  }
});
