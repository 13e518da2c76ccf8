import assert from "node:assert/strict";
import { basename, joinCommandLine, programKey, quoteArg, splitCommandLine } from "./command_line.ts";

Deno.test("splitCommandLine splits on whitespace and honours quotes", () => {
  assert.deepEqual(splitCommandLine("  gedit   --new-window\tfile "), ["gedit", "--new-window", "file"]);
  assert.deepEqual(splitCommandLine(`"/opt/My App/app" --name 'a b' x\\ y`), [
    "/opt/My App/app",
    "--name",
    "a b",
    "x y",
  ]);
  assert.deepEqual(splitCommandLine(`sh -c "echo \\"hi\\" \\$HOME \\\\ \\n"`), [
    "sh",
    "-c",
    `echo "hi" $HOME \\ \\n`,
  ]);
  assert.deepEqual(splitCommandLine(`a"b c"d ''`), ["ab cd", ""]);
  assert.deepEqual(splitCommandLine(""), []);
});

Deno.test("splitCommandLine returns null for an open quote", () => {
  assert.equal(splitCommandLine(`"abc`), null);
  assert.equal(splitCommandLine(`it's`), null);
});

Deno.test("quoteArg round-trips through splitCommandLine", () => {
  const argv = ["/opt/My App/app", "--x=1", "", `q"uote`, "$HOME", "back\\slash", "it's", "%f"];
  assert.deepEqual(splitCommandLine(joinCommandLine(argv)), argv);
  assert.equal(quoteArg("/usr/bin/gedit"), "/usr/bin/gedit");
  assert.equal(quoteArg("a b"), `"a b"`);
});

Deno.test("basename takes the last path component", () => {
  assert.equal(basename("/usr/bin/gedit"), "gedit");
  assert.equal(basename("gedit"), "gedit");
  assert.equal(basename("/opt/app/"), "app");
});

Deno.test("programKey skips env, its options and K=V assignments", () => {
  assert.equal(programKey(["/usr/bin/Gedit", "--new-window"]), "gedit");
  assert.equal(programKey(["env", "GDK_BACKEND=x11", "FOO=1", "/opt/x/Firefox"]), "firefox");
  assert.equal(programKey(["/usr/bin/env", "-u", "X", "LANG=C", "xterm"]), "xterm");
  assert.equal(programKey(["env", "-i", "--", "prog"]), "prog");
  assert.equal(programKey(["A=1", "prog"]), "prog");
  assert.equal(programKey(["env", "A=1"]), null);
  assert.equal(programKey([]), null);
});
