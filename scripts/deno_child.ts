/**
 * How the scripts and the tests start Deno child processes: from the cache that
 * `scripts/setup.sh` filled (`--cached-only`, so a missing module is a clear
 * error, never a fetch), with `DENO_NO_PACKAGE_JSON=1` (package.json is npm's),
 * and keeping the caller's network settings when a child's environment is
 * otherwise cleared (a proxy's CA in `SSL_CERT_FILE`, `HTTPS_PROXY`, `DENO_DIR`).
 *
 * @module
 */

/** Flags for `deno run` and `deno test` children: modules come from the cache only. */
export const CACHED_ONLY = ["--cached-only"] as const;

/**
 * The flag bin/cua-driver runs src/main.ts with: a literal `import()` loads its module
 * when it runs, not before main.ts starts (tools/index.ts names every tool). Not in deno.json,
 * where `deno compile` would honour it too and embed only the statically imported modules.
 */
export const LAZY_IMPORTS = ["--unstable-lazy-dynamic-imports"] as const;

/**
 * The V8 flags bin/cua-driver, `deno task start` and the compiled executable run the driver with:
 * a young generation of at least 8 MB, so a one-shot call (about 4 MB allocated while its modules
 * load) runs without the two 4 ms scavenges V8's 1 MB default costs it; a server pays a few MB.
 */
export const V8_FLAGS = ["--v8-flags=--min-semi-space-size=8"] as const;

/**
 * Variables that say where Deno's cache is and how this machine reaches the network:
 * certificates, proxies, registry settings. Children started with `clearEnv` keep them.
 */
export const NETWORK_ENV_KEYS = [
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_AUTH_TOKENS",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
  "NPM_CONFIG_CACHE",
  "npm_config_cache",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
] as const;

/**
 * The network-related part of this process's environment, plus `DENO_NO_PACKAGE_JSON=1`,
 * to merge into a child's `env`.
 *
 * @example
 * ```ts
 * new Deno.Command(Deno.execPath(), {
 *   args: ["run", "-A", ...CACHED_ONLY, "src/main.ts", "--version"],
 *   env: { PATH: "/usr/bin:/bin", ...denoChildEnv() },
 *   clearEnv: true,
 * });
 * ```
 */
export function denoChildEnv(): Record<string, string> {
  const env: Record<string, string> = { DENO_NO_PACKAGE_JSON: "1" };
  for (const key of NETWORK_ENV_KEYS) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}
