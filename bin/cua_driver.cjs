#!/usr/bin/env node
// cua-driver launcher (package.json "bin"): runs src/main.ts with the Deno this package pins, from
// wherever it is called (npx cua-driver, `npm install -g .`, an MCP client's {"command": "cua-driver"}).
// Paths come from this file's real location, so a symlinked bin works from any directory.
//
// DENO_NO_PACKAGE_JSON=1: package.json is npm's; the driver's imports are deno.json's, pinned by
// deno.lock (frozen). With the cache warm (scripts/setup.sh) nothing is fetched; on a cold cache the first
// run fetches with the caller's own network settings, which this launcher passes through untouched.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(path.dirname(fs.realpathSync(__filename)), "..");

/** The pinned Deno executable from node_modules/deno (its own installer finds the platform package). */
function denoExecutable() {
  const override = process.env.CUA_DRIVER_DENO;
  if (override) return override;
  try {
    return require(path.join(root, "node_modules", "deno", "install_api.cjs")).runInstall();
  } catch (error) {
    console.error(
      `cua-driver: the pinned Deno is not installed in ${path.join(root, "node_modules")} ` +
        `(${error && error.message ? error.message.split("\n")[0] : error}).\n` +
        `cua-driver: run \`npm ci\` (or \`sh scripts/setup.sh\`) in ${root}`,
    );
    process.exit(127);
  }
}

/** A CA only in SSL_CERT_FILE (Deno does not read it) is handed to Deno as DENO_CERT, for a first-run fetch. */
function certificateEnv() {
  const file = process.env.SSL_CERT_FILE;
  return file && !process.env.DENO_CERT && fs.existsSync(file) ? { DENO_CERT: file } : {};
}

const child = spawn(
  denoExecutable(),
  [
    "run",
    "-A",
    // Without it Deno reads and parses every module a literal import() names before running main.ts
    // (tools/index.ts names all tools): a one-shot call then costs the whole program's loading. Not in
    // deno.json: `deno compile` would honour it there and embed only the statically imported modules.
    "--unstable-lazy-dynamic-imports",
    "--config",
    path.join(root, "deno.json"),
    path.join(root, "src", "main.ts"),
    ...process.argv.slice(2),
  ],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      ...certificateEnv(),
      DENO_NO_PACKAGE_JSON: "1",
      CUA_DRIVER_LAUNCHER: process.argv[1],
    },
  },
);

// The launcher stands in for the driver: a client that stops it stops the driver.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  });
}
child.on("error", (error) => {
  console.error(`cua-driver: could not start Deno: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
