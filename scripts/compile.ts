/**
 * Builds one executable per OS with `deno compile` into dist/. Deno downloads
 * each target's runtime (denort) from dl.deno.land; set DENORT_BIN to a local
 * denort binary to build the host target offline.
 *
 *     deno run -A scripts/compile.ts [--target TRIPLE ...]
 */
const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

const root = new URL("..", import.meta.url).pathname;
const chosen = Deno.args.flatMap((arg, i) => Deno.args[i - 1] === "--target" ? [arg] : []);
const targets = chosen.length ? chosen : [...TARGETS];
let failed = 0;
for (const target of targets) {
  const name = `cua-driver-${target}${target.includes("windows") ? ".exe" : ""}`;
  console.log(`compiling ${name}`);
  const result = await new Deno.Command(Deno.execPath(), {
    // -A: the executable needs FFI (libX11, AT-SPI over sockets), subprocesses and files.
    args: ["compile", "-A", "--target", target, "--output", `${root}dist/${name}`, `${root}src/main.ts`],
    env: { DENO_NO_PACKAGE_JSON: "1" },
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!result.success) {
    failed++;
    console.error(
      `compile for ${target} failed (code ${result.code}); without network access set DENORT_BIN`,
    );
  }
}
Deno.exit(failed ? 1 : 0);
