import assert from "node:assert/strict";
import nodePath from "node:path";
import { pathFlavour } from "./file_paths.ts";

const POSIX_CASES = [
  "",
  ".",
  "..",
  "/",
  "//",
  "a",
  "a/",
  "/a",
  "/a/",
  "a/b",
  "/a/b/c",
  "/a//b///c/",
  "a/./b/../c",
  "../a/b",
  "/../a",
  "a/../..",
  "/home/user/.cua-driver/config.json",
  "./x/./y/..",
];
// Drive-relative paths ("C:", "C:foo") are left out: node resolves them against a per-drive
// working directory the driver never uses.
const WINDOWS_CASES = [
  ...POSIX_CASES,
  "C:\\",
  "C:/",
  "C:\\Users\\me\\.cua-driver\\config.json",
  "C:/Users/me/../you/",
  "\\\\server\\share\\dir\\file",
  "\\\\server\\share",
  "\\a\\b",
  "a\\b/c",
];

for (
  const [label, windows, reference, cases] of [
    ["posix", false, nodePath.posix, POSIX_CASES],
    ["win32", true, nodePath.win32, WINDOWS_CASES],
  ] as const
) {
  Deno.test(`pathFlavour ${label} agrees with node:path ${label}`, () => {
    const cwd = windows ? "C:\\work\\dir" : "/work/dir";
    const ours = pathFlavour(windows, () => cwd);
    for (const path of cases) {
      assert.equal(ours.normalize(path), reference.normalize(path), `normalize(${JSON.stringify(path)})`);
      assert.equal(ours.dirname(path), reference.dirname(path), `dirname(${JSON.stringify(path)})`);
      assert.equal(ours.basename(path), reference.basename(path), `basename(${JSON.stringify(path)})`);
      assert.equal(ours.isAbsolute(path), reference.isAbsolute(path), `isAbsolute(${JSON.stringify(path)})`);
      for (const other of ["b", "../c", "", "/abs"]) {
        assert.equal(ours.join(path, other), reference.join(path, other), `join(${path}, ${other})`);
      }
      assert.equal(ours.resolve(path), reference.resolve(cwd, path), `resolve(${JSON.stringify(path)})`);
    }
    assert.equal(ours.join(), reference.join());
    assert.equal(ours.resolve("a", "/b", "c"), reference.resolve(cwd, "a", "/b", "c"));
  });
}
