/**
 * Bundles the driver into one self-contained JavaScript file, dist/cua-driver.js,
 * runnable with `deno run -A dist/cua-driver.js <args>`. This is how CI proves
 * the program works as a single file on machines that cannot download Deno's
 * runtime for `deno compile`.
 *
 *     deno run -A scripts/bundle.ts [--output PATH]
 */
const root = new URL("..", import.meta.url).pathname;
const outputIndex = Deno.args.indexOf("--output");
const output = outputIndex >= 0 ? Deno.args[outputIndex + 1] : `${root}dist/cua-driver.js`;

/** Runs `deno bundle` of `entry` (default: the driver) into `to`; returns `to`. */
export async function bundle(to = output, entry = `${root}src/main.ts`): Promise<string> {
  await Deno.mkdir(new URL(".", `file://${to}`).pathname, { recursive: true });
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform", "deno", entry, "-o", to],
    env: { DENO_NO_PACKAGE_JSON: "1" },
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!result.success) throw new Error(`deno bundle failed with code ${result.code}`);
  return to;
}

if (import.meta.main) {
  console.log(`bundled ${await bundle()}`);
}
