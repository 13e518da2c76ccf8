/**
 * bin/cua-driver, package.json's command, outside the happy path the other tests take (they run it from
 * the clone and through `npm install -g .`): a copy without the pinned Deno says what to run and exits
 * 127, and a relative symlink to it, called from another directory, finds the clone it belongs to.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { denoEnv } from "../_helpers/driver.ts";
import { VERSION } from "../../src/version.ts";

const LAUNCHER = fileURLToPath(new URL("../../bin/cua-driver", import.meta.url));

async function run(command: string, cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(command, { args: ["--version"], cwd, env, clearEnv: true }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** A test body in a fresh temporary directory, removed afterwards. */
function inTempDir(body: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = await Deno.makeTempDir({ prefix: "cua-launcher-" });
    try {
      await body(dir);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  };
}

Deno.test({
  name: "bin/cua-driver without the pinned Deno names the missing install and exits 127",
  ignore: Deno.build.os === "windows",
  fn: inTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/bin`);
    await Deno.copyFile(LAUNCHER, `${dir}/bin/cua-driver`);
    await Deno.chmod(`${dir}/bin/cua-driver`, 0o755);
    const out = await run(`${dir}/bin/cua-driver`, dir, { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" });
    assert.equal(out.code, 127, out.stderr);
    assert.match(out.stderr, /the pinned Deno is not installed in .*\/node_modules/);
    assert.match(out.stderr, /run `npm ci` \(or `sh scripts\/setup\.sh`\)/);
  }),
});

Deno.test({
  name: "bin/cua-driver through a relative symlink, called from another directory, runs its own clone",
  ignore: Deno.build.os === "windows",
  fn: inTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/links`);
    const relative = `${"../".repeat(dir.split("/").length)}${LAUNCHER.slice(1)}`;
    await Deno.symlink(relative, `${dir}/links/cua-driver`);
    const out = await run(`${dir}/links/cua-driver`, "/", denoEnv());
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), `cua-driver ${VERSION}`);
  }),
});

Deno.test({
  name: "bin/cua-driver runs its clone from every spelling of its path, naming the config once",
  ignore: Deno.build.os === "windows",
  async fn() {
    const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
    for (
      const [command, cwd] of [[LAUNCHER, "/"], ["bin/cua-driver", root], ["./cua-driver", `${root}/bin`]]
    ) {
      const out = await run(command, cwd, denoEnv());
      assert.equal(out.code, 0, `${command} from ${cwd}: ${out.stderr}`);
      assert.equal(out.stdout.trim(), `cua-driver ${VERSION}`);
    }
    // Deno reads a config named as bin/../deno.json a second time under its own name.
    const out = await new Deno.Command(LAUNCHER, {
      args: ["--version"],
      env: { ...denoEnv(), DENO_LOG: "debug" },
      clearEnv: true,
    }).output();
    const log = new TextDecoder().decode(out.stderr);
    assert.deepEqual(
      [...log.matchAll(/Config file found at '([^']+)'/g)].map((m) => m[1]),
      [`${root}/deno.json`],
    );
  },
});
