/**
 * Builds the release executables with `deno compile`, one per target, into dist/, and
 * writes dist/SHA256SUMS for the ones built (the format `sha256sum -c` reads). Deno
 * downloads each target's runtime (denort) from dl.deno.land, so this needs that host;
 * `DENORT_BIN` can name a local denort for the host target. The release workflow
 * (.github/workflows/release.yml) runs this on a tag and smoke-tests each executable on
 * its own OS; where denort cannot be downloaded, scripts/bundle.ts builds the
 * single-file artifact that CI proves instead.
 *
 *     deno run -A scripts/compile.ts [--target TRIPLE ...] [--out DIR]
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { V8_FLAGS } from "./deno_child.ts";

/** The release targets: x86_64/aarch64 Linux and macOS, x86_64 Windows. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** One of {@linkcode TARGETS}. */
export type Target = typeof TARGETS[number];

const root = resolve(new URL("..", import.meta.url).pathname);

/** The executable's file name for a target: `cua-driver-<triple>`, with `.exe` for Windows. */
export function executableName(target: Target): string {
  return `cua-driver-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The `deno compile` arguments for one target. `-A`: the driver needs FFI (libX11, user32,
 * CoreGraphics), subprocesses, files and sockets; the lock is deno.json's (frozen).
 */
export function compileArgs(target: Target, outDir: string): string[] {
  return [
    "compile",
    "-A",
    ...V8_FLAGS,
    "--config",
    join(root, "deno.json"),
    "--target",
    target,
    "--output",
    join(outDir, executableName(target)),
    join(root, "src", "main.ts"),
  ];
}

/** The SHA-256 of a file, as lower-case hex. */
export async function sha256Hex(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Writes `<dir>/SHA256SUMS` for `files` (paths inside `dir`), one `<hex>  <name>` line each,
 * sorted by name, which `sha256sum -c SHA256SUMS` checks.
 *
 * @returns the file's path.
 */
export async function writeSums(dir: string, files: string[]): Promise<string> {
  const lines: string[] = [];
  for (const file of [...files].sort()) {
    lines.push(`${await sha256Hex(join(dir, basename(file)))}  ${basename(file)}`);
  }
  const path = join(dir, "SHA256SUMS");
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

/** Checks `--target` values against {@linkcode TARGETS}. */
export function chosenTargets(values: string[]): Target[] {
  if (values.length === 0) return [...TARGETS];
  for (const value of values) {
    if (!(TARGETS as readonly string[]).includes(value)) {
      throw new TypeError(`unknown target "${value}"; choose from ${TARGETS.join(", ")}`);
    }
  }
  return values as Target[];
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { target: { type: "string", multiple: true }, out: { type: "string" } },
  });
  const targets = chosenTargets(values.target ?? []);
  const outDir = resolve(values.out ?? join(root, "dist"));
  await Deno.mkdir(outDir, { recursive: true });
  const built: string[] = [];
  for (const target of targets) {
    const name = executableName(target);
    console.log(`compile: ${name}`);
    await Deno.remove(join(outDir, name)).catch(() => {});
    const result = await new Deno.Command(Deno.execPath(), {
      args: compileArgs(target, outDir),
      env: { DENO_NO_PACKAGE_JSON: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (result.success) built.push(name);
    else {console.error(
        `compile: ${target} failed (code ${result.code}); it needs dl.deno.land or DENORT_BIN`,
      );}
  }
  if (built.length > 0) console.log(`compile: ${await writeSums(outDir, built)}`);
  console.log(`compile: built ${built.length} of ${targets.length}`);
  return built.length === targets.length ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
