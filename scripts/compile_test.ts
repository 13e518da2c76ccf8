/**
 * scripts/compile.ts without denort (which these machines cannot download): the five
 * targets and their names, the `deno compile` command line, and SHA256SUMS that the
 * real `sha256sum -c` accepts; and the release workflow that runs it on GitHub builds
 * and smoke-tests exactly these targets with the pinned Deno.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { chosenTargets, compileArgs, executableName, TARGETS, writeSums } from "./compile.ts";

Deno.test("compile targets are x86_64/aarch64 Linux and macOS and x86_64 Windows, named by triple", () => {
  assert.deepEqual(TARGETS.map(executableName), [
    "cua-driver-x86_64-unknown-linux-gnu",
    "cua-driver-aarch64-unknown-linux-gnu",
    "cua-driver-x86_64-apple-darwin",
    "cua-driver-aarch64-apple-darwin",
    "cua-driver-x86_64-pc-windows-msvc.exe",
  ]);
  assert.deepEqual(chosenTargets([]), [...TARGETS]);
  assert.deepEqual(chosenTargets(["aarch64-apple-darwin"]), ["aarch64-apple-darwin"]);
  assert.throws(() => chosenTargets(["x86_64-linux"]), /unknown target "x86_64-linux"/);
});

Deno.test("compileArgs compiles src/main.ts with every permission for one target into the out dir", () => {
  const args = compileArgs("x86_64-pc-windows-msvc", "/tmp/out");
  assert.equal(args[0], "compile");
  assert.ok(args.includes("-A"));
  assert.ok(
    args.includes("--v8-flags=--min-semi-space-size=8"),
    "the executable keeps the launcher's V8 flags",
  );
  assert.equal(args[args.indexOf("--target") + 1], "x86_64-pc-windows-msvc");
  assert.equal(args[args.indexOf("--output") + 1], "/tmp/out/cua-driver-x86_64-pc-windows-msvc.exe");
  assert.match(args[args.indexOf("--config") + 1], /\/deno\.json$/);
  assert.match(args.at(-1)!, /\/src\/main\.ts$/);
});

Deno.test({
  name: "writeSums writes SHA256SUMS that sha256sum -c verifies, and that catches a changed file",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cua-sums-" });
    try {
      await Deno.writeTextFile(`${dir}/cua-driver-b`, "second");
      await Deno.writeFile(`${dir}/cua-driver-a.exe`, new Uint8Array([0, 1, 2, 255]));
      const path = await writeSums(dir, ["cua-driver-b", "cua-driver-a.exe"]);
      assert.equal(
        await Deno.readTextFile(path),
        // sha256 of "second", and of bytes 00 01 02 ff (also checked by sha256sum below).
        "3d1f57c984978ef98a18378c8166c1cb8ede02c03eeb6aee7e2f121dfeee3e56  cua-driver-a.exe\n" +
          "16367aacb67a4a017c8da8ab95682ccb390863780f7114dda0a0e0c55644c7c4  cua-driver-b\n",
      );
      const check = () => new Deno.Command("sha256sum", { args: ["-c", "SHA256SUMS"], cwd: dir }).output();
      assert.ok((await check()).success, "sha256sum -c accepts the file");
      await Deno.writeTextFile(`${dir}/cua-driver-b`, "changed");
      assert.equal((await check()).success, false, "sha256sum -c notices a changed executable");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("release.yml builds and smoke-tests every compile target, named as compile.ts names it, with the pinned Deno", async () => {
  const root = new URL("../", import.meta.url);
  // deno-lint-ignore no-explicit-any
  const workflow = parse(await Deno.readTextFile(new URL(".github/workflows/release.yml", root))) as any;
  const pinned = JSON.parse(await Deno.readTextFile(new URL("package.json", root))).optionalDependencies.deno;
  const job = workflow.jobs["build-and-smoke"];
  const matrix = job.strategy.matrix.include as { runner: string; target: string; exe?: string }[];
  assert.deepEqual(matrix.map((row) => row.target).sort(), [...TARGETS].sort());
  for (const row of matrix) {
    const bin = job.env.BIN.replace("${{ matrix.target }}", row.target).replace(
      "${{ matrix.exe }}",
      row.exe ?? "",
    );
    assert.equal(bin, `./dist/${executableName(row.target as typeof TARGETS[number])}`);
  }
  // deno-lint-ignore no-explicit-any
  const steps = job.steps as any[];
  assert.equal(
    steps.find((step) => step.uses?.startsWith("denoland/setup-deno"))?.with["deno-version"],
    pinned,
  );
  const runs = steps.map((step) => String(step.run ?? "")).join("\n");
  assert.match(runs, /deno task compile --target \$\{\{ matrix.target \}\}/);
  for (
    const smoke of [
      "sha256sum -c SHA256SUMS",
      '"$BIN" --version',
      '"$BIN" list-tools',
      '"$BIN" health_report',
    ]
  ) {
    assert.ok(runs.includes(smoke), smoke);
  }
  assert.match(runs, /"\$BIN" get_desktop_state --screenshot_out_file/);
  const publish = workflow.jobs.publish.steps.map((step: { run?: string }) => step.run ?? "").join("\n");
  assert.ok(publish.includes(`-eq ${TARGETS.length} ]`), "publish checks one sum per target");
});
