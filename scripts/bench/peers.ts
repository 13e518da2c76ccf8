/**
 * The benchmarks' peers, installed on first use: Debian packages (scrot, xdotool,
 * python3-xlib, python3-pyatspi, pngcheck, gcc and libpng-dev for the native PNG encoder, the
 * stock apps the sizes report reads) and npm playwright-core (driving the Debian Chromium) in a cache directory outside the
 * repository.
 *
 * @module
 */

/** Debian packages the benchmarks compare against or build their native peers with. */
export const PEER_PACKAGES = [
  "scrot",
  "xdotool",
  "python3-xlib",
  "python3-pyatspi",
  "pngcheck",
  "imagemagick",
  "gcc",
  "libc6-dev",
  "libpng-dev",
  "libx11-dev",
  "libxext-dev",
  "chromium",
  // The sizes report's stock apps (scripts/bench/sizes.ts).
  "mousepad",
  "gtk-3-examples",
  "galculator",
];

/** The playwright-core version the browser benchmark runs (a current release at the time of writing). */
export const PLAYWRIGHT_CORE = "1.65.1";

async function run(command: string, args: string[], env?: Record<string, string>): Promise<boolean> {
  const { success } = await new Deno.Command(command, { args, env, stdout: "null", stderr: "inherit" })
    .output()
    .catch(() => ({ success: false }));
  return success;
}

/** Installs the missing Debian peers (apt, waiting for other installers' locks). */
export async function ensureDebianPeers(log: (line: string) => void = console.error): Promise<void> {
  const missing: string[] = [];
  for (const pkg of PEER_PACKAGES) {
    const out = await new Deno.Command("dpkg-query", { args: ["-W", "-f=${Status}", pkg], stderr: "null" })
      .output().catch(() => null);
    if (!out || !new TextDecoder().decode(out.stdout).includes("install ok installed")) missing.push(pkg);
  }
  if (missing.length === 0) return;
  log(`bench: installing Debian peers: ${missing.join(" ")}`);
  const apt = ["-o", "DPkg::Lock::Timeout=900"];
  const env = { ...Deno.env.toObject(), DEBIAN_FRONTEND: "noninteractive" };
  const sudo = Deno.uid() === 0 ? [] : ["sudo"];
  const [cmd, ...pre] = [...sudo, "apt-get"];
  await run(cmd, [...pre, ...apt, "update", "-q"], env);
  if (!await run(cmd, [...pre, ...apt, "install", "-y", "-q", "--no-install-recommends", ...missing], env)) {
    throw new Error(`bench: cannot install ${missing.join(" ")}`);
  }
}

/**
 * The directory whose `node_modules` holds playwright-core at {@linkcode PLAYWRIGHT_CORE}, installed
 * with npm on first use under `~/.cache/cua-driver-bench/peers`.
 */
export async function ensurePlaywrightCore(log: (line: string) => void = console.error): Promise<string> {
  const dir = `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/cua-driver-bench/peers`;
  const manifest = `${dir}/node_modules/playwright-core/package.json`;
  const installed = await Deno.readTextFile(manifest).then((text) => JSON.parse(text).version, () => null);
  if (installed !== PLAYWRIGHT_CORE) {
    log(`bench: installing npm playwright-core@${PLAYWRIGHT_CORE} in ${dir}`);
    await Deno.mkdir(dir, { recursive: true });
    if (
      !await run("npm", [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefix",
        dir,
        `playwright-core@${PLAYWRIGHT_CORE}`,
      ])
    ) {
      throw new Error(`bench: npm could not install playwright-core@${PLAYWRIGHT_CORE}`);
    }
  }
  return dir;
}
